import type { ReadingView } from '@astra/contracts';
import { type ReactNode, useMemo } from 'react';
import { VoiceGuideProvider } from '../../voice/VoiceGuideProvider';
import type { ReadingNotFoundProps } from './ReadingNotFound';
import { ResultFallback } from './ResultFallback';
import { ReadingProgressContext, WRITTEN } from './readingProgress';
import type { ReadingSource } from './useReadingSource';
import { ReportHighlightContext, useReportHighlight } from './useReportHighlight';

interface ReadingResultPageProps<View> {
  source: ReadingSource<View>;
  /** Shown while the reading loads, e.g. 'Loading your reading...'. */
  loadingLabel: string;
  notFound: ReadingNotFoundProps;
  /** The reading's text, which the offline voice guide reads aloud and answers from. */
  voiceText: (view: View) => string;
  /** The page once its reading is there (`writing`: its text is still coming). */
  children: (found: { view: View; reading?: ReadingView; writing: boolean }) => ReactNode;
}

/**
 * The frame of every result page: loading, not found, failed and error until the reading is
 * there; then the page, whose 'How to use' card (`HowToUseCard`) leads to its report
 * (`ReadingReport`) and its voice guide (`VoiceSessionCard`). A reading being written shows its
 * facts at once and its text as it comes (`ReadingProgressContext`). A saved reading has a voice
 * guide; one still being written, or shown from an old link's query, has none.
 */
export function ReadingResultPage<View>({
  source,
  loadingLabel,
  notFound,
  voiceText,
  children,
}: ReadingResultPageProps<View>) {
  const highlight = useReportHighlight();
  const live = source.status === 'found' ? source.live : undefined;
  const writing = live?.writing ?? false;
  const reconnecting = live?.reconnecting ?? false;
  // One value while the text grows: its readers render again only when writing starts or ends.
  const progress = useMemo(
    () => (writing || reconnecting ? { writing, reconnecting } : WRITTEN),
    [writing, reconnecting],
  );
  if (source.status !== 'found') {
    return <ResultFallback source={source} loadingLabel={loadingLabel} notFound={notFound} />;
  }
  const { reading } = source;
  const page = children({ ...source, writing });
  return (
    <ReportHighlightContext.Provider value={highlight}>
      <ReadingProgressContext.Provider value={progress}>
        {reading ? (
          <VoiceGuideProvider
            key={reading.readingId}
            readingId={reading.readingId}
            appId={reading.appId}
            firstName={reading.firstName}
            readingText={voiceText(source.view)}
          >
            {page}
          </VoiceGuideProvider>
        ) : (
          page
        )}
      </ReadingProgressContext.Provider>
    </ReportHighlightContext.Provider>
  );
}
