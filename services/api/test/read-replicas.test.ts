import {
  type ReplicatedPostgres,
  replicatedPostgres,
  replicationAvailable,
} from '@astra/event-store/replication';
import type { Request, Response } from 'express';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STALENESS_MS } from '../src/http/readReplicas.ts';
import { type Client, startTestServer, type TestServer, until } from './support.ts';

/**
 * Read replicas on a real primary and hot standby (streaming replication, built here with
 * `initdb` and `pg_basebackup`), the standby applying each commit late on purpose: a request
 * that follows its session's write still reads that write, from the standby once it replayed
 * it, else from the primary.
 */
const available = await replicationAvailable();

const readsBy = async (server: TestServer) => {
  const { values } = await server.deps.metrics.replicaReads.get();
  const count = (servedBy: string, reason?: string) =>
    values
      .filter((v) => v.labels.served_by === servedBy && (!reason || v.labels.reason === reason))
      .reduce((sum, v) => sum + v.value, 0);
  return {
    replica: count('replica'),
    waited: count('replica', 'waited'),
    primary: count('primary'),
    behind: count('primary', 'replica behind'),
    down: count('primary', 'no replica up'),
    stale: count('primary', 'replica stale'),
  };
};

describe.runIf(available)('read replicas (DATABASE_READ_URL)', () => {
  const database = 'astra_replicas';
  let replicated: ReplicatedPostgres;
  let server: TestServer;
  let admin: Client;

  beforeAll(async () => {
    replicated = (await replicatedPostgres({ applyDelayMs: 150 }))!;
    await replicated.createDatabase(database);
    server = await startTestServer({
      DATABASE_URL: replicated.primaryUrl(database),
      DATABASE_READ_URL: replicated.standbyUrl(database),
      READ_REPLICA_WAIT_MS: '1000',
    });
    admin = server.client();
    await admin.signInAsAdmin();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await replicated?.stop();
  });

  /**
   * Sign-ups reading their welcome grant, and admin adjustments read back at once, in parallel:
   * each read must show the write before it (a violation otherwise).
   */
  const mixedLoad = async (rounds: number) => {
    const violations: string[] = [];
    const signUps = Array.from({ length: 4 }, async (_, worker) => {
      for (let round = 0; round < rounds; round++) {
        const member = server.client();
        const me = await member.signIn(`replica-${worker}-${round}-${Date.now()}@example.com`);
        const ledger = (await member.get('/api/me/ledger')).body;
        if (!ledger.items?.some((e: { type: string }) => e.type === 'FreeCreditsGranted'))
          violations.push(`sign-up ${me.id} did not see its welcome grant`);
      }
    });
    const member = server.client();
    const { id } = await member.signIn(`adjusted-${Date.now()}@example.com`);
    const adjustments = (async () => {
      for (let round = 1; round <= rounds; round++) {
        const adjusted = await admin.post(`/api/admin/users/${id}/credits`, {
          amount: 1,
          reason: `Round ${round}`,
        });
        expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(200);
        const audit = (await admin.get(`/api/admin/users/${id}/ledger`)).body;
        if (!audit.items?.some((e: { reason: string }) => e.reason === `Round ${round}`))
          violations.push(`adjustment ${round} not in the ledger read after it`);
      }
    })();
    await Promise.all([...signUps, adjustments]);
    return violations;
  };

  it('reads every write of the session after it, from the standby once it has replayed it', async () => {
    const before = await readsBy(server);
    expect(await mixedLoad(6)).toEqual([]);
    const after = await readsBy(server);
    // The standby served the reads, and some had to wait for its (delayed) replay.
    expect(after.replica - before.replica).toBeGreaterThan(20);
    expect(after.waited - before.waited).toBeGreaterThan(0);
  }, 120_000);

  it('reads a GET on the standby, and on the primary once the request itself writes', async () => {
    const onStandby = async () =>
      (
        await sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(
          server.deps.read,
        )
      ).rows[0]!.standby;
    const replicas = server.deps.replicas!;
    const seen = await new Promise<boolean[]>((resolve, reject) => {
      void replicas.middleware({ method: 'GET' } as Request, {} as Response, () => {
        (async () => {
          const before = await onStandby();
          replicas.wrote(); // as `Consistency.settle` does after a command
          return [before, await onStandby()];
        })().then(resolve, reject);
      });
    });
    expect(seen).toEqual([true, false]);
    // Outside a request (schedules, reactors): the primary.
    expect(await onStandby()).toBe(false);
  });

  it('reads the primary when the standby lags past the bound, still seeing its writes', async () => {
    await replicated.setApplyDelay(3000);
    try {
      const before = await readsBy(server);
      expect(await mixedLoad(2)).toEqual([]);
      const after = await readsBy(server);
      expect(after.behind - before.behind).toBeGreaterThan(0);
    } finally {
      await replicated.setApplyDelay(150);
    }
  }, 120_000);

  it('gives a standby more than MAX_STALENESS_MS behind no reads, even of sessions that wrote nothing', async () => {
    await replicated.setApplyDelay(MAX_STALENESS_MS + 5000);
    try {
      expect(await mixedLoad(1)).toEqual([]);
      await until(
        'the standby to be seen stale',
        () => server.deps.replicas?.status().every((replica) => replica.up && !replica.fresh),
        MAX_STALENESS_MS + 5000,
      );
      const before = await readsBy(server);
      const anonymous = server.client();
      expect((await anonymous.get('/api/health')).status).toBe(200);
      expect((await readsBy(server)).stale - before.stale).toBe(1);
    } finally {
      await replicated.setApplyDelay(150);
    }
    await until('the standby to be fresh again', () =>
      server.deps.replicas?.status().every((replica) => replica.fresh),
    );
  }, 120_000);

  it('reads the primary while the standby is down, and the standby again once it is back', async () => {
    await replicated.stopStandby();
    try {
      await until('the standby to be seen down', () =>
        server.deps.replicas?.status().every((replica) => !replica.up),
      );
      const before = await readsBy(server);
      expect(await mixedLoad(1)).toEqual([]);
      expect((await readsBy(server)).down - before.down).toBeGreaterThan(0);
    } finally {
      await replicated.startStandby();
    }
    await until('the standby to be seen up', () =>
      server.deps.replicas?.status().every((replica) => replica.up),
    );
    const before = await readsBy(server);
    expect(await mixedLoad(1)).toEqual([]);
    expect((await readsBy(server)).replica - before.replica).toBeGreaterThan(0);
  }, 120_000);
});
