import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { personalData } from '@astra/contracts';
import { openStorage } from '@astra/event-store';
import { createThrowawayDatabase, postgresForTests } from '@astra/event-store/testing';
import {
  allProjections,
  databaseFor,
  migrateReadModels,
  Projector,
  READ_SCHEMA,
  readModels,
} from '@astra/projections';
import { describe, expect, it } from 'vitest';
import { randomHistory } from '../../../packages/projections/test/support.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const SECRET = 'the-master-secret-of-these-cli-tests';

/** Runs one of the README's commands (`npm run …`), returning its exit code and output. */
async function cli(script: 'projections:rebuild' | 'ledger:verify', env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe.runIf(await postgresForTests())(
  'projections:rebuild and ledger:verify (PostgreSQL)',
  () => {
    it('rebuild replays everything, verify agrees, and verify exits 1 naming a tampered balance', async () => {
      const database = await createThrowawayDatabase();
      const storage = await openStorage({
        databaseUrl: database.url,
        dataDir: null,
        personalData,
        dataKeySecret: SECRET,
      });
      const db = databaseFor(storage.connection);
      try {
        await migrateReadModels(db, READ_SCHEMA);
        const { users } = await randomHistory(storage.store, { commands: 300, users: 8, seed: 5 });
        await new Projector(storage.store, db, allProjections).catchUp();
        const env = { DATABASE_URL: database.url, DATA_KEY_SECRET: SECRET };

        const rebuilt = await cli('projections:rebuild', env);
        expect(rebuilt.code, rebuilt.output).toBe(0);
        expect(rebuilt.output).toMatch(/Rebuilt the read models from \d+ events/);

        const verified = await cli('ledger:verify', env);
        expect(verified.code, verified.output).toBe(0);
        expect(verified.output).toMatch(/Ledger verified: 8 accounts/);

        await readModels(db)
          .updateTable('profiles')
          .set({ remaining_credits: 999_999 })
          .where('id', '=', users[0]!)
          .execute();
        const tampered = await cli('ledger:verify', env);
        expect(tampered.code).toBe(1);
        expect(tampered.output).toContain(
          `DIFFERENCE profile ${users[0]}: remaining_credits 999999`,
        );
      } finally {
        await db.destroy();
        await storage.close();
        await database.drop();
      }
    }, 120_000);

    it('verify exits 1 naming a projection left behind the log (failed, or not running)', async () => {
      const database = await createThrowawayDatabase();
      const storage = await openStorage({
        databaseUrl: database.url,
        dataDir: null,
        personalData,
        dataKeySecret: SECRET,
      });
      const db = databaseFor(storage.connection);
      try {
        await migrateReadModels(db, READ_SCHEMA);
        await randomHistory(storage.store, { commands: 100, users: 3, seed: 9 });
        // Every projection but the library catches up; its checkpoint stays at the start.
        await new Projector(
          storage.store,
          db,
          allProjections.filter((p) => p.name !== 'usage_logs'),
        ).catchUp();
        const verified = await cli('ledger:verify', {
          DATABASE_URL: database.url,
          DATA_KEY_SECRET: SECRET,
        });
        expect(verified.code, verified.output).toBe(1);
        expect(verified.output).toMatch(
          /BEHIND projection usage_logs is at position 0, the log's head is \d+/,
        );
        expect(verified.output).toMatch(
          /Ledger verification FAILED: 1 projection behind the log \(usage_logs\)/,
        );
        expect(verified.output).not.toContain('DIFFERENCE');
      } finally {
        await db.destroy();
        await storage.close();
        await database.drop();
      }
    }, 120_000);

    it('exits 2 with the reason when it cannot run', async () => {
      const result = await cli('ledger:verify', { DATABASE_URL: 'mysql://nope' });
      expect(result.code).toBe(2);
      expect(result.output).toMatch(/DATABASE_URL/);
    });
  },
);

describe('on PGlite', () => {
  it('refuses a DATA_DIR that a running app holds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-cli-'));
    const storage = await openStorage({ dataDir });
    try {
      const result = await cli('ledger:verify', { DATA_DIR: dataDir });
      expect(result.code).toBe(2);
      expect(result.output).toContain(`is in use by process ${process.pid}`);
    } finally {
      await storage.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
