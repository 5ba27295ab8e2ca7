import { Redirect } from '../../../app/drawing';
import { LoadingState } from '../../../ui/LoadingState';
import { PageTitle } from '../../../ui/PageTitle';
import { ReadingFailed } from './ReadingFailed';
import { ReadingLoadError } from './ReadingLoadError';
import { ReadingNotFound, type ReadingNotFoundProps } from './ReadingNotFound';
import type { ReadingSource } from './useReadingSource';

interface ResultFallbackProps {
  source: Exclude<ReadingSource<unknown>, { status: 'found' }>;
  loadingLabel: string;
  notFound: ReadingNotFoundProps;
}

/** Everything a result page shows when it has no reading: loading, not found, failed, error. */
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
      return <Redirect to={source.path} />;
    case 'error':
      return <ReadingLoadError retry={source.retry} />;
    case 'failed':
      return <ReadingFailed failure={source.failure} formPath={source.formPath} />;
    default:
      return <ReadingNotFound {...notFound} />;
  }
}
