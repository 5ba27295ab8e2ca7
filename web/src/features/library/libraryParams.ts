import { readingOfApp } from '../readings/readingCatalog';
import type { LibraryQuery } from './libraryApi';

/** The library's search, app filter and page live in the address: ?search=&app=&page=. */
export function libraryQueryFrom(params: URLSearchParams): LibraryQuery {
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const app = Number.parseInt(params.get('app') ?? '', 10);
  return {
    search: (params.get('search') ?? '').trim(),
    appId: readingOfApp(app) ? app : null,
    page,
  };
}

export function libraryParamsFor(query: LibraryQuery): Record<string, string> {
  return {
    ...(query.search ? { search: query.search } : {}),
    ...(query.appId ? { app: String(query.appId) } : {}),
    ...(query.page > 1 ? { page: String(query.page) } : {}),
  };
}

export function formatLibraryDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}
