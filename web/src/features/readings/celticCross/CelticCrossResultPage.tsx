import { Heading, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer } from '../../../ui/PageContainer';
import { Surface } from '../../../ui/Surface';
import { VoiceSessionCard } from '../../voice/VoiceSessionCard';
import { HowToUseCard } from '../result/HowToUseCard';
import { QuestionQuote } from '../result/QuestionQuote';
import { ReadingReport } from '../result/ReadingReport';
import { ReadingResultPage } from '../result/ReadingResultPage';
import { ResultHeader } from '../result/ResultHeader';
import { parseJsonParam } from '../result/resultFields';
import { useReadingSource } from '../result/useReadingSource';
import { CelticCrossLayout } from './CelticCrossLayout';
import { CelticCrossList } from './CelticCrossList';
import { celticCrossFromQuery, celticCrossFromResult } from './celticCrossReading';

export default function CelticCrossResultPage() {
  const [params] = useSearchParams();
  const legacy = useMemo(
    () => celticCrossFromQuery(parseJsonParam(params.get('data')), params),
    [params],
  );
  const source = useReadingSource(
    params.get('readingId') ?? params.get('reading_result_id'),
    'tarot-celtic-cross',
    (reading) => celticCrossFromResult(reading.result, reading.firstName, reading.question),
    legacy,
  );

  return (
    <ReadingResultPage
      source={source}
      voiceText={(view) => view.text}
      loadingLabel="Loading your reading..."
      notFound={{
        text: "We couldn't find this Celtic Cross reading. Please generate a new one.",
        actionLabel: 'Generate a New Reading',
        actionTo: '/tarot-celtic-cross',
      }}
    >
      {({ view, reading }) => (
        <PageContainer maxW="5xl">
          <ResultHeader
            title="Your Celtic Cross Reading"
            subtitle={view.firstName ? `Ten cards for ${view.firstName}.` : undefined}
          />
          <QuestionQuote question={view.question} firstName={view.firstName} />
          <HowToUseCard />
          <VoiceSessionCard />
          {view.cards.length > 0 && (
            <Surface as="section" aria-labelledby="spread-heading" gap="4">
              <Heading as="h2" textStyle="sectionTitle" id="spread-heading">
                Your Spread
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                The cross shows your situation; the staff beside it, how you stand in it and where
                it leads.
              </Text>
              <CelticCrossLayout cards={view.cards} />
              <CelticCrossList cards={view.cards} />
            </Surface>
          )}
          <ReadingReport
            title="Your Full Celtic Cross Reading"
            generatedAt={reading?.createdAt}
            text={view.text}
          />
        </PageContainer>
      )}
    </ReadingResultPage>
  );
}
