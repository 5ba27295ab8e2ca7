import { join } from 'node:path';
import { readingKindRecords } from '@astra/contracts';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readRoutes } from '../../../routeTable';
import { READINGS, readingOfApp } from './readingCatalog';

const root = join(import.meta.dirname, '../../..');
const routes = readRoutes(root, join(root, 'src/app/router.tsx'));
/** The signed-in page the router draws at this address, if any (never the not-found page). */
const pageAt = (address: string) => {
  const { pathname } = new URL(address, 'http://astra.test');
  return routes.find((route) => route.path !== '*' && matchPath(route.path, pathname));
};

describe('the web catalogue of reading kinds', () => {
  it('has a form and a result page in the router for every kind of the contracts', () => {
    for (const { slug, appId } of readingKindRecords) {
      const { formPath, resultPath } = READINGS[slug];
      expect(pageAt(formPath), `${slug}'s form`).toMatchObject({ signedIn: true });
      expect(
        pageAt(resultPath('00000000-0000-4000-8000-000000000000')),
        `${slug}'s result`,
      ).toMatchObject({ signedIn: true });
      expect(readingOfApp(appId)?.slug).toBe(slug);
    }
  });
});
