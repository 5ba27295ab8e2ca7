import type { ReadingView } from '@astra/contracts';
import type { ReactNode } from 'react';
import { VoiceGuideProvider } from '../../voice/VoiceGuideProvider';
import type { ReadingNotFoundProps } from './ReadingNotFound';
import { ResultFallback } from './ResultFallback';
import type { ReadingSource } from './useReadingSource';
import { ReportHighlightContext, useReportHighlight } from './useReportHighlight';

interface ReadingResultPageProps<View> {
  source: ReadingSource<View>;
  /** Shown while the reading loads, e.g. 'Loading your reading...'. */
  loadingLabel: string;
  notFound: ReadingNotFoundProps;
  /** The reading's text, which the offline voice guide reads aloud and answers from. */
  voiceText: (view: View) => string;
  /** The page once its reading is there. */
  children: (found: { view: View; reading?: ReadingView }) => ReactNode;
}

/**
 * The frame of every result page: loading, not found and error until the reading is there; then
 * the page, whose 'How to use' card (`HowToUseCard`) leads to its report (`ReadingReport`) and
 * its voice guide (`VoiceSessionCard`). A saved reading has a voice guide; a reading shown from
 * an old link's query has none.
 */
export function ReadingResultPage<View>({
  source,
  loadingLabel,
  notFound,
  voiceText,
  children,
}: ReadingResultPageProps<View>) {
  const highlight = useReportHighlight();
  if (source.status !== 'found') {
    return <ResultFallback source={source} loadingLabel={loadingLabel} notFound={notFound} />;
  }
  const { reading } = source;
  return (
    <ReportHighlightContext.Provider value={highlight}>
      {reading ? (
        <VoiceGuideProvider
          key={reading.readingId}
          readingId={reading.readingId}
          appId={reading.appId}
          firstName={reading.firstName}
          readingText={voiceText(source.view)}
        >
          {children(source)}
        </VoiceGuideProvider>
      ) : (
        children(source)
      )}
    </ReportHighlightContext.Provider>
  );
}
