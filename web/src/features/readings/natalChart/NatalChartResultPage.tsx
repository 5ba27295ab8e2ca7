import { Alert, Heading, Text } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { PageContainer } from '../../../ui/PageContainer';
import { Surface } from '../../../ui/Surface';
import { VoiceSessionCard } from '../../voice/VoiceSessionCard';
import { NatalChartWheel } from '../chartWheel/NatalChartWheel';
import { HowToUseCard } from '../result/HowToUseCard';
import { ReadingReport } from '../result/ReadingReport';
import { ReadingResultPage } from '../result/ReadingResultPage';
import { ResultHeader } from '../result/ResultHeader';
import { useReadingSource } from '../result/useReadingSource';
import { BirthInfoCard } from './BirthInfoCard';
import { natalFromReading } from './natalReading';

export default function NatalChartResultPage() {
  const { readingId } = useParams();
  const source = useReadingSource(readingId, 'natal-chart', natalFromReading, null);

  return (
    <ReadingResultPage
      source={source}
      voiceText={(view) => view.report ?? ''}
      loadingLabel="Loading your chart..."
      notFound={{
        title: 'Chart not found',
        text: "The natal chart you're looking for doesn't exist or has expired.",
        actionLabel: 'Back to Dashboard',
        actionTo: '/app',
      }}
    >
      {({ view, reading, writing }) => (
        <PageContainer maxW="4xl">
          <ResultHeader
            title="Natal Birth Chart"
            subtitle={view.name ? `The sky at the moment ${view.name} was born.` : undefined}
          />
          <HowToUseCard />
          <VoiceSessionCard />
          <BirthInfoCard birth={view.birth} />
          <Surface as="section" aria-labelledby="wheel-heading" gap="4" px={{ base: '3', md: '6' }}>
            <Heading as="h2" size="md" id="wheel-heading">
              Your Chart
            </Heading>
            {view.unknownTimeNote && (
              <Alert.Root status="info" role="note" aria-label="Birth time unknown">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Description>{view.unknownTimeNote}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            )}
            <NatalChartWheel chart={view.chart} aspects={view.aspects} />
            {view.houseSystemNote && (
              <Text fontSize="sm" color="fg.muted">
                {view.houseSystemNote}
              </Text>
            )}
          </Surface>
          {(view.report || writing) && (
            <ReadingReport
              title="Your Full Natal Report"
              generatedAt={reading?.createdAt}
              text={view.report ?? ''}
            />
          )}
        </PageContainer>
      )}
    </ReadingResultPage>
  );
}
