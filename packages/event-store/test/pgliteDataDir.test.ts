/**
 * A new PGlite data directory is a copy of a fresh database kept in node_modules/.cache (initdb
 * takes seconds, a copy a fraction of one): each directory is its own database all the same.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/index.ts';

const cache = join(import.meta.dirname, '../../../node_modules/.cache/astra-pglite');

describe('a new PGlite data directory', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('gets a fresh database of its own, copied from the cached one', async () => {
    const open = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'astra-pglite-dir-'));
      dirs.push(dir);
      const connection = await connectPostgres({ dataDir: dir });
      if (connection.kind !== 'pglite') throw new Error('expected PGlite');
      return { dir, connection };
    };
    const first = await open();
    await first.connection.sql.exec(
      'CREATE TABLE only_here (id int); INSERT INTO only_here VALUES (1)',
    );
    await first.connection.close();

    const versions = await readdir(cache);
    expect(versions.filter((v) => !v.endsWith('.partial'))).not.toEqual([]);
    for (const version of versions.filter((v) => !v.endsWith('.partial')))
      expect(existsSync(join(cache, version, 'PG_VERSION'))).toBe(true);

    const second = await open();
    const { rows } = await second.connection.sql.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'only_here'",
    );
    expect(rows).toEqual([{ n: 0 }]);
    await second.connection.close();

    const reopened = await connectPostgres({ dataDir: first.dir });
    const kept = await reopened.sql.query('SELECT id FROM only_here');
    expect(kept.rows).toEqual([{ id: 1 }]);
    await reopened.close();
  }, 120_000);
});
