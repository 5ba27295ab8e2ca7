import type { ReadingView } from '@astra/contracts';
import type { ReactNode } from 'react';
import type { ReadingNotFoundProps } from './ReadingNotFound';
import { ResultFallback } from './ResultFallback';
import type { ReadingSource } from './useReadingSource';
import { ReportHighlightContext, useReportHighlight } from './useReportHighlight';

interface ReadingResultPageProps<View> {
  source: ReadingSource<View>;
  /** Shown while the reading loads, e.g. 'Loading your reading...'. */
  loadingLabel: string;
  notFound: ReadingNotFoundProps;
  /** The page once its reading is there. */
  children: (found: { view: View; reading?: ReadingView }) => ReactNode;
}

/**
 * The frame of every result page: loading, not found and error until the reading is there; then
 * the page, whose 'How to use' card (`HowToUseCard`) leads to its report (`ReadingReport`).
 */
export function ReadingResultPage<View>({
  source,
  loadingLabel,
  notFound,
  children,
}: ReadingResultPageProps<View>) {
  const highlight = useReportHighlight();
  if (source.status !== 'found') {
    return <ResultFallback source={source} loadingLabel={loadingLabel} notFound={notFound} />;
  }
  return (
    <ReportHighlightContext.Provider value={highlight}>
      {children(source)}
    </ReportHighlightContext.Provider>
  );
}
