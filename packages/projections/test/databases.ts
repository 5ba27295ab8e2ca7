import { postgresForTests } from '@astra/event-store/testing';
import { describe } from 'vitest';

const postgres = await postgresForTests();

/** Registers the same tests against PGlite and, where reachable, a PostgreSQL server. */
export function onEachDatabase(title: string, tests: (kind: 'pglite' | 'postgres') => void) {
  describe(`${title} (PGlite)`, () => tests('pglite'));
  describe.runIf(postgres)(`${title} (PostgreSQL)`, () => tests('postgres'));
}
