import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, postgresForTests } from '@astra/event-store/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../build.ts';
import { PROCESS_GONE_SECONDS } from '../src/http/apiProcess.ts';
import { startBundledApi } from './bundledApi.ts';
import { fakeOpenAi, pieceGate } from './openAiDouble.ts';
import { type Answer, Client, eventCount, startTestServer, type TestServer } from './support.ts';

const ADMIN = { ADMIN_EMAILS: 'admin@example.com', ADMIN_PASSWORD: 'correct horse battery staple' };
/** A retry learns its outcome within this long of the server being back. */
const OUTCOME_WITHIN_MS = 15_000;
const TAKEN_OVER = 'Idempotency-Key: its first request was cut off';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm start`'s server in a child process, its log read for takeovers. */
async function startApi(env: Record<string, string>) {
  const api = await startBundledApi({ LOG_LEVEL: 'info', ...ADMIN, ...env });
  return {
    ...api,
    /** How many claims of requests cut off this process took over (its log says each). */
    takeovers: () =>
      api
        .output()
        .split('\n')
        .filter((line) => line.includes(TAKEN_OVER)).length,
  };
}
type Api = Awaited<ReturnType<typeof startApi>>;

const stop = async (api: Api | undefined, signal: NodeJS.Signals = 'SIGKILL') => {
  if (!api || api.child.exitCode !== null || api.child.signalCode !== null) return;
  api.child.kill(signal);
  await api.exited;
};

/** The same signed-in client, talking to another server (a restart, another replica). */
function at(client: Client, url: string) {
  const moved = new Client(url);
  moved.cookie = client.cookie;
  return moved;
}

/** One keyed money command: an admin's adjustment of a member, or a member's reading (a spend). */
interface Command {
  key: string;
  member: number;
  kind: 'adjustment' | 'reading';
  path: string;
  body: unknown;
}

interface World {
  admin: Client;
  /** Each with its balance before the burst. */
  members: { client: Client; id: string; balance: number }[];
  commands: Command[];
  /** What a reading of the burst costs. */
  readingCost: number;
}

const ADJUSTMENT = 5;

async function signUp(url: string, memberCount: number, commandCount: number): Promise<World> {
  const admin = new Client(url);
  await admin.signInAsAdmin();
  const members = await Promise.all(
    Array.from({ length: memberCount }, async (_, i) => {
      const client = new Client(url);
      const me = await client.signIn(`crash-${i}-${randomUUID()}@example.com`, 'Ada Lovelace');
      // Enough for every reading of the burst.
      const funded = await admin.post(`/api/admin/users/${me.id}/credits`, {
        amount: 100,
        reason: 'Crash test credits',
      });
      expect(funded.status).toBe(200);
      return { client, id: me.id, balance: funded.body.remainingCredits as number };
    }),
  );
  const commands = Array.from({ length: commandCount }, (_, i): Command => {
    const member = i % memberCount;
    return i % 2 === 0
      ? {
          key: `crash-adjust-${i}`,
          member,
          kind: 'adjustment',
          path: `/api/admin/users/${members[member]!.id}/credits`,
          body: { amount: ADJUSTMENT, reason: `Crash test ${i}` },
        }
      : {
          key: `crash-reading-${i}`,
          member,
          kind: 'reading',
          path: '/api/readings/tarot-traditional',
          body: { firstName: 'Ada', question: `Will request ${i} survive the crash?` },
        };
  });
  const apps = await admin.get('/api/apps');
  const readingCost = apps.body.items.find(
    (app: { slug: string }) => app.slug === 'tarot-traditional',
  ).creditCost as number;
  expect(readingCost).toBeGreaterThan(0);
  return { admin, members, commands, readingCost };
}

const clientOf = (world: World, command: Command) =>
  command.kind === 'adjustment' ? world.admin : world.members[command.member]!.client;

const send = (client: Client, command: Command) =>
  client.post(command.path, command.body, { 'Idempotency-Key': command.key });

/**
 * Fires every command at once and kills the server (`kill -9`) once every reading has spent its
 * credits and is being written (the model holds its text back): those requests, and any
 * adjustment still running, are cut off between their claim and their answer.
 */
async function burstAndKill(world: World, api: Api, model: Model) {
  const readings = world.commands.filter((c) => c.kind === 'reading').length;
  const sent = world.commands.map((command) =>
    send(clientOf(world, command), command).catch(() => undefined),
  );
  const deadline = Date.now() + 30_000;
  while (model.writing() < readings) {
    if (Date.now() > deadline) throw new Error(`the readings did not start:\n${api.output()}`);
    await pause(20);
  }
  api.child.kill('SIGKILL');
  const answers = await Promise.all(sent);
  expect(await api.exited).toBe('SIGKILL');
  // The model writes at once from now on.
  model.release();
  return answers;
}

/** OpenAI's stand-in: it holds every text back until released. */
async function heldModel() {
  const gate = pieceGate();
  const double = await fakeOpenAi(() => ({ before: gate.before }));
  return {
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: double.url,
      OPENAI_MODEL: 'gpt-test',
      OPENAI_MAX_RETRIES: '0',
    },
    writing: () => double.seen.length,
    release: () => gate.open(),
    close: () => double.close(),
  };
}
type Model = Awaited<ReturnType<typeof heldModel>>;

interface Outcome {
  answer: Answer;
  /** When it was learned, in ms after `from`. */
  afterMs: number;
  retryAfters: number[];
}

/** Retries every command until it is no longer `409 request_in_progress`, or the time is up. */
async function retryAll(world: World, url: string, from: number): Promise<Outcome[]> {
  const moved = {
    admin: at(world.admin, url),
    members: world.members.map((m) => at(m.client, url)),
  };
  return Promise.all(
    world.commands.map(async (command) => {
      const client = command.kind === 'adjustment' ? moved.admin : moved.members[command.member]!;
      const retryAfters: number[] = [];
      for (;;) {
        const answer = await send(client, command);
        const inProgress = answer.status === 409 && answer.body?.error === 'request_in_progress';
        if (!inProgress || Date.now() - from > OUTCOME_WITHIN_MS + 5_000)
          return { answer, afterMs: Date.now() - from, retryAfters };
        retryAfters.push(Number(answer.headers.get('retry-after')));
        await pause(200);
      }
    }),
  );
}

/**
 * Every retry learned its final answer in time; an answer given before the crash is replayed as
 * it was; and no command was applied twice: each adjustment and each reading's spend is on its
 * member's ledger once (none when its answer refused it), and the balance replayed from the log
 * is the sum of that ledger.
 */
async function expectOutcomes(
  world: World,
  url: string,
  before: (Answer | undefined)[],
  outcomes: Outcome[],
) {
  for (const [i, outcome] of outcomes.entries()) {
    const command = world.commands[i]!;
    const { answer } = outcome;
    // Its final answer: the command was carried out (the members have the credits).
    expect(answer.status, `${command.key}: ${JSON.stringify(answer.body)}`).toBe(
      command.kind === 'adjustment' ? 200 : 201,
    );
    expect(outcome.afterMs, command.key).toBeLessThanOrEqual(OUTCOME_WITHIN_MS);
    // A live claim asks for a retry in seconds, not for the rest of a lease.
    for (const seconds of outcome.retryAfters) expect(seconds).toBeLessThanOrEqual(2);
    const first = before[i];
    if (first) {
      expect(answer.status, command.key).toBe(first.status);
      expect(answer.body, command.key).toEqual(first.body);
      expect(answer.headers.get('idempotent-replayed'), command.key).toBe('true');
    }
  }

  const admin = at(world.admin, url);
  for (const [m, member] of world.members.entries()) {
    const mine = world.commands
      .map((command, i) => ({ command, answer: outcomes[i]!.answer }))
      .filter(({ command }) => command.member === m);
    const log = await admin.get(`/api/admin/users/${member.id}/balance`);
    expect(log.status).toBe(200);
    // The ledger (a read model) once it shows the account's last event.
    const client = at(member.client, url);
    const deadline = Date.now() + 15_000;
    let ledger = await client.get('/api/me/ledger');
    while (ledger.body.items[0]?.position !== log.body.position) {
      expect(Date.now(), 'the ledger did not catch up with the log').toBeLessThan(deadline);
      await pause(50);
      ledger = await client.get('/api/me/ledger');
    }
    const entries = ledger.body.items as {
      type: string;
      amount: number;
      reason: string;
      balanceAfter: number;
      reference: Record<string, string> | null;
    }[];
    expect(ledger.body.total).toBe(entries.length);
    for (const { command, answer } of mine) {
      if (command.kind === 'adjustment') {
        const reason = (command.body as { reason: string }).reason;
        const applied = entries.filter((e) => e.reason === reason);
        expect(applied.length, command.key).toBe(1);
      } else {
        const readingId = answer.body.readingId as string;
        const spends = entries.filter(
          (e) => e.amount < 0 && Object.values(e.reference ?? {}).includes(readingId),
        );
        expect(spends.length, `${command.key}: ${JSON.stringify(entries)}`).toBe(1);
      }
    }
    // Each command once: the balance, by the log and by the ledger, is the sum of them all.
    const adjustments = mine.filter(({ command }) => command.kind === 'adjustment').length;
    const readings = mine.length - adjustments;
    const expected = member.balance + adjustments * ADJUSTMENT - readings * world.readingCost;
    expect(log.body.balance).toBe(expected);
    expect(entries.reduce((total, e) => total + e.amount, 0)).toBe(expected);
    expect(entries[0]!.balanceAfter).toBe(expected);
  }
}

const healthy = async (url: string) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await fetch(`${url}/api/health`).catch(() => undefined);
    if (answer?.status === 200) return Date.now();
    if (Date.now() > deadline) throw new Error('the API did not become healthy');
    await pause(50);
  }
};

/** PostgreSQL when the machine has it (else one line says its tests are skipped). */
const withPostgres = await postgresForTests();

describe('Idempotency-Key claims of a process killed under load (kill -9)', () => {
  beforeAll(() => buildApi(), 60_000);

  const crashAndRestart = async (storage: Record<string, string>) => {
    const model = await heldModel();
    const env = { ...storage, ...model.env };
    let api: Api | undefined = await startApi(env);
    try {
      const world = await signUp(api.url, 6, 40);
      const before = await burstAndKill(world, api, model);
      api = await startApi(env);
      const back = await healthy(api.url);
      const outcomes = await retryAll(world, api.url, back);
      await expectOutcomes(world, api.url, before, outcomes);
      // The burst was cut off with claims pending, and the restarted server took them over.
      expect(api.takeovers(), api.output()).toBeGreaterThan(0);
      return { before, outcomes, api };
    } finally {
      await stop(api, 'SIGTERM');
      model.close();
    }
  };

  it('on PGlite: after the restart every retry learns its outcome at once, applied once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-crash-'));
    try {
      const { outcomes } = await crashAndRestart({ DATA_DIR: dataDir });
      // One process per DATA_DIR: the claims of the killed one are free from the start.
      for (const outcome of outcomes) expect(outcome.retryAfters).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('on PostgreSQL: after the restart every retry learns its outcome within 15 s, applied once', async () => {
    if (!withPostgres) return;
    const database = await createThrowawayDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-crash-'));
    try {
      await crashAndRestart({ DATABASE_URL: database.url, DATA_DIR: dataDir });
      // The restarted server stopped cleanly: its row is gone; the killed one's stays, stale.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ stale: boolean }>(
          `SELECT heartbeat_at < now() - make_interval(secs => ${PROCESS_GONE_SECONDS}) AS stale FROM app.api_processes`,
        );
        expect(rows).toEqual([{ stale: true }]);
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('with two API processes on one PostgreSQL: the killed one’s claims are taken over by the other within 15 s', async () => {
    if (!withPostgres) return;
    const database = await createThrowawayDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'astra-crash-'));
    const model = await heldModel();
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ...model.env };
    let killed: Api | undefined;
    let other: Api | undefined;
    try {
      killed = await startApi(env);
      other = await startApi(env);
      const world = await signUp(killed.url, 6, 40);
      const before = await burstAndKill(world, killed, model);
      const outcomes = await retryAll(world, other.url, Date.now());
      await expectOutcomes(world, other.url, before, outcomes);
      expect(other.takeovers(), other.output()).toBeGreaterThan(0);
      // Until the killed process was known gone, its claims answered 409 with a short Retry-After.
      expect(outcomes.some((o) => o.retryAfters.length > 0)).toBe(true);
    } finally {
      await stop(killed);
      await stop(other, 'SIGTERM');
      model.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.each(withPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'Idempotency-Key claims and the process holding them (%s)',
  (storage) => {
    let server: TestServer;
    let admin: Client;
    let memberId: string;
    beforeAll(async () => {
      server = await startTestServer({}, storage);
      admin = server.client();
      await admin.signInAsAdmin();
      memberId = (await server.client().signIn('claims@example.com', 'Ada Lovelace')).id;
    });
    afterAll(() => server?.close());

    const hashOf = (path: string, body: unknown) =>
      createHash('sha256')
        .update(`POST ${path}\n${JSON.stringify(body)}`)
        .digest('hex');

    /** A pending claim with most of its lease left, held by `processId`. */
    const leaveClaim = (key: string, requestHash: string, processId: string) =>
      sql`INSERT INTO app.idempotency_keys (key, request_hash, status, body, created_at, lease_until, claim_token, process_id)
      VALUES (${key}, ${requestHash}, NULL, NULL, now(), now() + make_interval(secs => 290),
        'a-request', ${processId})`.execute(server.deps.db);
    /** A process row that last beat `agoS` seconds ago. */
    const processBeat = (id: string, agoS: number) =>
      sql`INSERT INTO app.api_processes (id, started_at, heartbeat_at)
      VALUES (${id}, now() - interval '1 hour', now() - make_interval(secs => ${agoS}))
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`.execute(server.deps.db);

    const adjustment = async (key: string, amount: number) => {
      const path = `/api/admin/users/${memberId}/credits`;
      const body = { amount, reason: `Claim ${key}` };
      return {
        hash: hashOf(path, body),
        claimKey: `${(await admin.get('/api/me')).body.id}:${key}`,
        send: () => admin.post(path, body, { 'Idempotency-Key': key }),
      };
    };

    it('a claim of a live process answers 409 with a Retry-After of seconds; once it stops beating, a retry takes it over', async () => {
      const other = randomUUID();
      await processBeat(other, 0);
      const command = await adjustment('live-then-gone', 7);
      await leaveClaim(command.claimKey, command.hash, other);
      const events = await eventCount(server);

      const waiting = await command.send();
      expect(waiting).toMatchObject({ status: 409, body: { error: 'request_in_progress' } });
      const retryAfter = Number(waiting.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      expect(await eventCount(server)).toBe(events);

      await processBeat(other, PROCESS_GONE_SECONDS + 1);
      const retry = await command.send();
      expect(retry).toMatchObject({ status: 200, body: { amount: 7 } });
      expect(await eventCount(server)).toBe(events + 1);
      const again = await command.send();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(retry.body);
      expect(await eventCount(server)).toBe(events + 1);
    });

    it('a claim whose process has no row (shut down, or gone from a PGlite database) is taken over at once', async () => {
      const command = await adjustment('no-row', 6);
      await leaveClaim(command.claimKey, command.hash, randomUUID());
      const events = await eventCount(server);
      const retry = await command.send();
      expect(retry).toMatchObject({ status: 200, body: { amount: 6 } });
      expect(await eventCount(server)).toBe(events + 1);
    });

    it('a claim of the process asking is alive, whatever its row says', async () => {
      const me = server.deps.apiProcess.id;
      const command = await adjustment('this-process', 5);
      await leaveClaim(command.claimKey, command.hash, me);
      await sql`UPDATE app.api_processes SET heartbeat_at = now() - interval '1 minute' WHERE id = ${me}`.execute(
        server.deps.db,
      );
      const waiting = await command.send();
      expect(waiting).toMatchObject({ status: 409, body: { error: 'request_in_progress' } });
      // Its beat puts the row right again.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await sql<{ fresh: boolean }>`
        SELECT heartbeat_at > now() - interval '10 seconds' AS fresh FROM app.api_processes
        WHERE id = ${me}`.execute(server.deps.db);
        if (rows[0]?.fresh) break;
        expect(Date.now(), 'the process did not beat again').toBeLessThan(deadline);
        await pause(100);
      }
    });

    it('a new claim names the process that holds it', async () => {
      const command = await adjustment('named', 2);
      expect((await command.send()).status).toBe(200);
      const { rows } = await sql<{ process_id: string }>`
      SELECT process_id FROM app.idempotency_keys WHERE key = ${command.claimKey}`.execute(
        server.deps.db,
      );
      expect(rows).toEqual([{ process_id: server.deps.apiProcess.id }]);
    });
  },
);
