import { Navigate } from 'react-router';
import { LoadingState } from '../../../ui/LoadingState';
import { PageTitle } from '../../../ui/PageTitle';
import { ReadingLoadError } from './ReadingLoadError';
import { ReadingNotFound, type ReadingNotFoundProps } from './ReadingNotFound';
import type { ReadingSource } from './useReadingSource';

interface ResultFallbackProps {
  source: Exclude<ReadingSource<unknown>, { status: 'found' }>;
  loadingLabel: string;
  notFound: ReadingNotFoundProps;
}

/** Everything a result page shows before it has a reading: loading, not found, error. */
export function ResultFallback({ source, loadingLabel, notFound }: ResultFallbackProps) {
  switch (source.status) {
    case 'loading':
      return (
        <>
          <PageTitle>{loadingLabel.replace(/\.+$/, '')}</PageTitle>
          <LoadingState label={loadingLabel} />
        </>
      );
    case 'elsewhere':
      return <Navigate to={source.path} replace />;
    case 'error':
      return <ReadingLoadError retry={source.retry} />;
    default:
      return <ReadingNotFound {...notFound} />;
  }
}
