import { connect, createServer, type Socket } from 'node:net';
import { eventually, postgresForTests } from '@astra/event-store/testing';
import {
  allProjections,
  projectorLeaders,
  rebuildReadModels,
  stillLeads,
  untilProjected,
} from '@astra/projections';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  dumpReadModels,
  openTestStorage,
  randomHistory,
} from '../../../packages/projections/test/support.ts';
import { Leadership, NotLeadingError } from '../src/leadership.ts';
import { leaderPid, type Replica, startReplica } from './replicas.ts';

const SECRET = 'the-master-secret-of-these-failover-tests';
const NAMES = allProjections.map((p) => p.name).join(',');
const quiet = { info: () => {}, warn: () => {} };

/** A throwaway PostgreSQL database, personal data sealed under `SECRET`, read models migrated. */
async function openDatabase() {
  const storage = await openTestStorage('postgres', { dataKeySecret: SECRET });
  return { storage, db: storage.db, databaseUrl: storage.databaseUrl!, close: storage.dispose };
}

/** Ends the session that holds the leader's lock, as a dropped connection would. */
const terminateLeaderSession = (db: Parameters<typeof projectorLeaders>[0]) =>
  sql`SELECT pg_terminate_backend(backend_pid) FROM public.projector_leaders`.execute(db);

/**
 * A TCP relay to PostgreSQL whose `freeze` stops carrying bytes while both sockets stay open: a
 * network that went silent (no FIN, no RST).
 */
async function relayTo(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets: Socket[] = [];
  let frozen = false;
  const server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 5432), target.hostname);
    sockets.push(inbound, outbound);
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      from.on('data', (chunk) => frozen || to.write(chunk));
      from.on('error', () => {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(databaseUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as { port: number }).port);
  return {
    url: relayed.toString(),
    freeze: () => {
      frozen = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.runIf(await postgresForTests())('projector failover (PostgreSQL)', () => {
  it('three replicas: one leads, a standby takes over within 5 s of kill -9, a lost connection stops the leader within 1 s, and the read models equal a rebuild', async () => {
    const { databaseUrl, storage, db, close } = await openDatabase();
    const replicas: Replica[] = [];
    let appending = true;
    try {
      await randomHistory(storage.store, { commands: 150, users: 6, seed: 3 });
      const env = { DATABASE_URL: databaseUrl, DATA_KEY_SECRET: SECRET };
      replicas.push(startReplica(env), startReplica(env), startReplica(env));
      const byPid = (pid: number) => replicas.find((r) => r.pid === pid)!;
      // Events keep coming while leaders die.
      const writer = (async () => {
        for (let seed = 10; appending; seed++) {
          await randomHistory(storage.store, { commands: 15, users: 2, seed });
        }
      })();

      const first = await leaderPid(db);
      expect(await projectorLeaders(db)).toHaveLength(1);
      for (const replica of replicas.filter((r) => r.pid !== first)) {
        await replica.line(/waiting to lead/);
        expect(replica.lines.some((l) => /leading \(term/.test(l.msg))).toBe(false);
      }

      const killedAt = performance.now();
      byPid(first).child.kill('SIGKILL');
      await leaderPid(db, first);
      const takeoverMs = performance.now() - killedAt;
      expect(takeoverMs).toBeLessThan(5000);

      const [before] = await projectorLeaders(db);
      const terminatedAt = performance.now();
      await terminateLeaderSession(db);
      const noticedMs =
        (await byPid(before!.pid).line(/No longer leading/, terminatedAt)) - terminatedAt;
      expect(noticedMs).toBeLessThan(1000);
      // Someone leads again (it may be the same process, from a new session), in a later term.
      await eventually(async () => ((await projectorLeaders(db))[0]?.term ?? 0) > before!.term);

      appending = false;
      await writer;
      await untilProjected(
        db,
        allProjections.map((p) => p.name),
        20_000,
      );
      await Promise.all(replicas.map((r) => r.stop()));
      // Nothing applied twice or skipped: the rows are a fresh replay's.
      const followed = await dumpReadModels(db);
      await rebuildReadModels(storage.store, db);
      expect(await dumpReadModels(db)).toEqual(followed);
    } finally {
      appending = false;
      await Promise.all(replicas.map((r) => r.stop()));
      await close();
    }
  }, 120_000);

  it('a deposed leader’s batch cannot commit: its fence fails once another term leads', async () => {
    const { databaseUrl, db, close } = await openDatabase();
    const options = { databaseUrl: databaseUrl, name: NAMES, logger: quiet };
    const shutdown = new AbortController();
    try {
      const old = (await new Leadership(options).acquire(shutdown.signal))!;
      await db.transaction().execute((trx) => old.fence(trx));
      const standby = new Leadership(options).acquire(shutdown.signal);

      const terminatedAt = performance.now();
      await terminateLeaderSession(db);
      expect(await old.lost).toMatch(/connection/);
      expect(performance.now() - terminatedAt).toBeLessThan(1000);

      const current = (await standby)!;
      expect(current.term).toBe(old.term + 1n);
      await expect(db.transaction().execute((trx) => old.fence(trx))).rejects.toThrow(
        NotLeadingError,
      );
      // The check itself, as a batch of a leader that has not noticed yet would run it.
      await db.transaction().execute(async (trx) => {
        expect(await stillLeads(trx, NAMES, old.term)).toBe(false);
        expect(await stillLeads(trx, NAMES, current.term)).toBe(true);
      });
      await db.transaction().execute((trx) => current.fence(trx));
      await current.release();
      expect(await projectorLeaders(db)).toEqual([]);
    } finally {
      shutdown.abort();
      await close();
    }
  }, 60_000);

  it('a leader whose network goes silent stops within 1 s; once its session ends, a standby leads', async () => {
    const { databaseUrl, db, close } = await openDatabase();
    const relay = await relayTo(databaseUrl);
    const shutdown = new AbortController();
    try {
      const options = { name: NAMES, logger: quiet };
      const old = (await new Leadership({ ...options, databaseUrl: relay.url }).acquire(
        shutdown.signal,
      ))!;
      const standby = new Leadership({ ...options, databaseUrl: databaseUrl }).acquire(
        shutdown.signal,
      );

      const frozenAt = performance.now();
      relay.freeze();
      expect(await old.lost).toMatch(/no answer/);
      expect(performance.now() - frozenAt).toBeLessThan(1000);
      // The server still sees the session holding the lock until the connection breaks (its
      // keepalives would break it): meanwhile the fence keeps the old leader's batches out.
      expect(await projectorLeaders(db)).toMatchObject([{ term: Number(old.term) }]);
      relay.close();
      const current = (await standby)!;
      expect(current.term).toBe(old.term + 1n);
      await current.release();
    } finally {
      shutdown.abort();
      relay.close();
      await close();
    }
  }, 60_000);
});
