import { Heading, SimpleGrid } from '@chakra-ui/react';
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
import { useReadingSource } from '../result/useReadingSource';
import { TarotCardTile } from './TarotCardTile';
import { tarotFromQuery, tarotFromResult } from './tarotReading';

export default function TarotResultPage() {
  const [params] = useSearchParams();
  const legacy = useMemo(() => tarotFromQuery(params), [params]);
  const source = useReadingSource(
    params.get('readingId'),
    'tarot-traditional',
    (reading) => tarotFromResult(reading.result, reading.firstName, reading.question),
    legacy,
  );

  return (
    <ReadingResultPage
      source={source}
      voiceText={(view) => view.readingText}
      loadingLabel="Loading your reading..."
      notFound={{
        text: "We couldn't find this tarot reading. Please draw your cards again.",
        actionLabel: 'Draw New Cards',
        actionTo: '/tarot-traditional',
      }}
    >
      {({ view, reading }) => (
        <PageContainer maxW="4xl">
          <ResultHeader
            title="Your Tarot Reading"
            subtitle={
              view.firstName ? `Past, present and future for ${view.firstName}.` : undefined
            }
          />
          <QuestionQuote question={view.question} firstName={view.firstName} />
          <HowToUseCard dismissible />
          <VoiceSessionCard />
          {view.cards.length > 0 && (
            <Surface as="section" aria-labelledby="cards-heading" gap="5">
              <Heading as="h2" textStyle="sectionTitle" id="cards-heading">
                Your Cards
              </Heading>
              <SimpleGrid
                as="ul"
                columns={{ base: 1, sm: 3 }}
                gap={{ base: '5', sm: '4' }}
                listStyleType="none"
              >
                {view.cards.map((card) => (
                  <TarotCardTile key={card.position} card={card} />
                ))}
              </SimpleGrid>
            </Surface>
          )}
          <ReadingReport
            title="Your Full Tarot Reading"
            generatedAt={reading?.createdAt}
            text={view.readingText}
          />
        </PageContainer>
      )}
    </ReadingResultPage>
  );
}
