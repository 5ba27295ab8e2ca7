import { formatLongDate } from '@astra/contracts';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer } from '../../../ui/PageContainer';
import { VoiceSessionCard } from '../../voice/VoiceSessionCard';
import { HowToUseCard } from '../result/HowToUseCard';
import { ReadingReport } from '../result/ReadingReport';
import { ReadingResultPage } from '../result/ReadingResultPage';
import { ResultHeader } from '../result/ResultHeader';
import { parseJsonParam } from '../result/resultFields';
import { useReadingSource } from '../result/useReadingSource';
import { lifePathFromResult } from './lifePathReading';
import { NumberCards } from './NumberCards';

export default function LifePathResultPage() {
  const [params] = useSearchParams();
  const legacy = useMemo(() => lifePathFromResult(parseJsonParam(params.get('data'))), [params]);
  const source = useReadingSource(
    params.get('readingId'),
    'life-path',
    (reading) => lifePathFromResult(reading.result),
    legacy,
  );

  return (
    <ReadingResultPage
      source={source}
      voiceText={(view) => view.text}
      loadingLabel="Loading your reading..."
      notFound={{
        text: "We couldn't find this life path reading. Please calculate your numbers again.",
        actionLabel: 'Calculate Again',
        actionTo: '/lifepathnumber',
      }}
    >
      {({ view, reading }) => {
        const name = [view.firstName, view.lastName].filter(Boolean).join(' ');
        const born = view.birthDate ? formatLongDate(view.birthDate) : undefined;
        return (
          <PageContainer maxW="4xl">
            <ResultHeader
              title="Your Life Path Reading"
              subtitle={name ? `The numbers of ${name}${born ? `, born ${born}` : ''}.` : undefined}
            />
            <NumberCards view={view} />
            <HowToUseCard dismissible />
            <VoiceSessionCard />
            <ReadingReport
              title="Your Full Numerology Reading"
              generatedAt={reading?.createdAt}
              text={view.text}
            />
          </PageContainer>
        );
      }}
    </ReadingResultPage>
  );
}
