import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { personalData } from '@astra/contracts';
import { openStorage, type StorageConfig, WrongDataKeySecretError } from '@astra/event-store';
import { createThrowawayDatabase, postgresReachable } from '@astra/event-store/testing';
import { freeAllotmentMailbox, legacyEmailKey, streams } from '@astra/ledger';
import { describe, expect, it } from 'vitest';
import { randomHistory } from '../../../packages/projections/test/support.ts';
import { Ledger, systemContext } from '../../api/src/ledger/ledger.ts';
import { signIn } from '../../api/src/modules/accounts/registration.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const SECRET = 'the-current-data-key-secret-of-this-test';
const NEW_SECRET = 'the-next-data-key-secret-of-this-test-run';

async function cli(script: 'privacy:migrate' | 'privacy:rotate-key', env: Record<string, string>) {
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

/** A database of either engine, as the CLIs' environment and as `openStorage`'s config. */
async function database(
  kind: 'PGlite' | 'PostgreSQL',
): Promise<{ env: Record<string, string>; config: StorageConfig; drop: () => Promise<void> }> {
  if (kind === 'PostgreSQL') {
    const made = await createThrowawayDatabase();
    return {
      env: { DATABASE_URL: made.url, DATA_DIR: await mkdtemp(join(tmpdir(), 'astra-privacy-')) },
      config: { databaseUrl: made.url, dataDir: null } satisfies StorageConfig,
      drop: made.drop,
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'astra-privacy-'));
  return {
    env: { DATA_DIR: dataDir },
    config: { dataDir } satisfies StorageConfig,
    drop: () => rm(dataDir, { recursive: true, force: true }),
  };
}

const ADDRESS = 'Secret.Person+promo@Googlemail.com';
const policy = { freeCredits: 10, adminEmails: [] };

/** A log as the app wrote it before personal data was encrypted, with one deleted account. */
async function writeLegacyLog(config: StorageConfig) {
  const storage = await openStorage(config);
  try {
    // No keyring: mailbox streams named by the plain SHA-256, every field in clear.
    const ledger = new Ledger(storage.store);
    const context = systemContext();
    const { userId } = await signIn(
      ledger,
      { email: ADDRESS, fullName: 'Secreta Personne', provider: 'dev' },
      policy,
      context,
    );
    await ledger.handle(
      'user',
      userId,
      { type: 'UpdateProfile', changes: { birthDate: '1987-03-14', birthCity: 'Valparaíso' } },
      context,
    );
    await ledger.handle('user', userId, { type: 'DeleteUser', reason: 'user_requested' }, context);
    await ledger.handle('email', ADDRESS.toLowerCase(), { type: 'ReleaseEmail', userId }, context);
    // Readings (no `metadata.subject` on their events), feedback, credits.
    await randomHistory(storage.store, { commands: 300, users: 4, seed: 25 });
    await storage.snapshots.save(streams.credits(userId), 'credit-account', 1, {
      revision: 0n,
      position: 1n,
      latestAt: new Date().toISOString(),
      state: { email: ADDRESS },
    });
    return userId;
  } finally {
    await storage.close();
  }
}

/** Every row of the log and its snapshots as text, as a dump would show them. */
async function rawDump(config: StorageConfig) {
  const storage = await openStorage(config);
  try {
    const { rows } = await storage.connection.sql.query<{ row: string }>(
      `SELECT concat_ws(' ', position, stream_name, type, data::text, metadata::text) AS row FROM events
       UNION ALL SELECT concat_ws(' ', stream_name, state::text) FROM snapshots ORDER BY 1`,
    );
    return rows.map((r) => r.row).join('\n');
  } finally {
    await storage.close();
  }
}

const personalStrings = [
  /secret\.?person/i,
  /Secreta/,
  /Personne/,
  /1987-03-14/,
  /Valpara/,
  /@example\.com/,
  /Random Person/,
  /"Random"/,
  /Question \d+\?/,
  /Reading \d+/,
  /Feedback \d+/,
];

const engines = [
  ['PGlite', true],
  ['PostgreSQL', await postgresReachable()],
] as const;

describe.each(engines)('privacy:migrate on %s', (kind, available) => {
  it.runIf(available)(
    'seals a log written in clear, renames its mailboxes, keeps the free allotment spent, and a second run changes nothing',
    async () => {
      const db = await database(kind);
      const env = { ...db.env, DATA_KEY_SECRET: SECRET };
      const secretConfig = { ...db.config, personalData, dataKeySecret: SECRET };
      try {
        const oldUser = await writeLegacyLog(db.config);
        // The app refuses such a log until it is migrated.
        await expect(openStorage(secretConfig)).rejects.toThrow(/privacy:migrate/);

        const first = await cli('privacy:migrate', env);
        expect(first.code, first.output).toBe(0);
        expect(first.output).toMatch(
          /Sealed \d+ events, renamed 2 mailbox streams, dropped 1 snapshots/,
        );
        expect(first.output).toMatch(/Rebuilt the read models from \d+ events/);

        const dump = await rawDump(db.config);
        for (const pattern of personalStrings) expect(dump).not.toMatch(pattern);
        const mailbox = freeAllotmentMailbox(ADDRESS);
        expect(dump).not.toContain(legacyEmailKey(ADDRESS));
        expect(dump).not.toContain(legacyEmailKey(mailbox));

        const second = await cli('privacy:migrate', env);
        expect(second.code, second.output).toBe(0);
        expect(second.output).toContain('Nothing left to migrate');
        expect(await rawDump(db.config)).toBe(dump);

        const storage = await openStorage(secretConfig);
        try {
          const registered = [];
          for await (const event of storage.store.readStream(streams.user(oldUser)))
            registered.push(event.data);
          expect(registered[0]).toMatchObject({
            email: ADDRESS.toLowerCase(),
            fullName: 'Secreta Personne',
          });
          expect(registered[1]).toMatchObject({ birthDate: '1987-03-14', birthCity: 'Valparaíso' });
          const questions = [];
          for await (const event of storage.store.readAll({
            filter: { types: ['ReadingRequested', 'ReadingGenerated'] },
          }))
            questions.push(event.data);
          expect(questions.length).toBeGreaterThan(0);
          expect(JSON.stringify(questions)).toMatch(/Question \d+\?.*Reading \d+/);

          // The keyed mailbox streams carry the old claim: the address gets no free credits again.
          const keyring = storage.keyring!;
          const ledger = new Ledger(storage.store, {
            mailboxId: (address) => keyring.mailboxId(address),
          });
          const again = await signIn(
            ledger,
            { email: 'secretperson@gmail.com', fullName: null, provider: 'dev' },
            policy,
            systemContext(),
          );
          expect(again.userId).not.toBe(oldUser);
          const newcomer = await signIn(
            ledger,
            { email: 'newcomer@example.org', fullName: null, provider: 'dev' },
            policy,
            systemContext(),
          );
          const freeGrants = async (userId: string) => {
            let grants = 0;
            for await (const event of storage.store.readStream(streams.credits(userId)))
              if (event.type === 'FreeCreditsGranted') grants++;
            return grants;
          };
          expect(await freeGrants(again.userId)).toBe(0);
          expect(await freeGrants(newcomer.userId)).toBe(1);
        } finally {
          await storage.close();
        }
      } finally {
        await db.drop();
        if (kind === 'PostgreSQL') await rm(db.env.DATA_DIR!, { recursive: true, force: true });
      }
    },
    240_000,
  );

  it.runIf(available)(
    'privacy:rotate-key re-wraps the keys: the new secret reads them, the old one is refused',
    async () => {
      const db = await database(kind);
      const secretConfig = { ...db.config, personalData, dataKeySecret: SECRET };
      try {
        const storage = await openStorage(secretConfig);
        let userId: string;
        try {
          const ledger = new Ledger(storage.store, {
            mailboxId: (address) => storage.keyring!.mailboxId(address),
          });
          ({ userId } = await signIn(
            ledger,
            { email: 'rotating@example.org', fullName: 'Rota Tion', provider: 'dev' },
            policy,
            systemContext(),
          ));
        } finally {
          await storage.close();
        }

        const short = await cli('privacy:rotate-key', { ...db.env, DATA_KEY_SECRET: SECRET });
        expect(short.code).toBe(2);
        expect(short.output).toContain('NEW_DATA_KEY_SECRET');

        const rotated = await cli('privacy:rotate-key', {
          ...db.env,
          DATA_KEY_SECRET: SECRET,
          NEW_DATA_KEY_SECRET: NEW_SECRET,
        });
        expect(rotated.code, rotated.output).toBe(0);
        expect(rotated.output).toMatch(/Re-wrapped 2 data keys under the new secret/);

        await expect(openStorage(secretConfig)).rejects.toThrow(WrongDataKeySecretError);
        const reopened = await openStorage({ ...secretConfig, dataKeySecret: NEW_SECRET });
        try {
          for await (const event of reopened.store.readStream(streams.user(userId))) {
            expect(event.data).toMatchObject({
              email: 'rotating@example.org',
              fullName: 'Rota Tion',
            });
            break;
          }
        } finally {
          await reopened.close();
        }
      } finally {
        await db.drop();
        if (kind === 'PostgreSQL') await rm(db.env.DATA_DIR!, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('privacy:migrate on KurrentDB', () => {
  it('refuses, since such a log cannot be rewritten in place', async () => {
    const result = await cli('privacy:migrate', {
      KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:1?tls=false',
      DATA_KEY_SECRET: SECRET,
    });
    expect(result.code).toBe(2);
    expect(result.output).toContain('A KurrentDB log cannot be rewritten in place');
  });
});
