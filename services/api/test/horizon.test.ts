import { postgresForTests } from '@astra/event-store/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support.ts';

/**
 * A transaction left open on the database holds the event log's horizon: no reader sees events
 * committed after it began. With one open past HORIZON_STALL_SECONDS, health says so and names
 * the backend, and a whole-log read (an export) answers 503 instead of stopping early.
 */
const available = await postgresForTests();

describe.runIf(available)('a transaction left open (PostgreSQL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ HORIZON_STALL_SECONDS: '1' }, 'postgres');
  });
  afterAll(async () => server?.close());

  it('turns health degraded naming its backend, fails an export with 503, and recovers', async () => {
    const admin = server.client();
    await admin.signInAsAdmin();
    expect((await admin.get('/api/health')).body).toEqual({ status: 'ok' });

    const left = new pg.Client({ connectionString: server.databaseUrl });
    await left.connect();
    try {
      await left.query("SET application_name = 'left-open'");
      await left.query('BEGIN');
      await left.query('SELECT pg_current_xact_id()');
      // An event committed after it began: readers cannot pass the open transaction to it (a
      // sign-in now would wait for its profile, which the projector cannot reach either).
      await server.deps.ledger.store.append('late-1', [{ type: 'Counted', data: {} }], {
        expected: 'no_stream',
      });

      // Health: degraded past the threshold, naming the backend (polled: the threshold is 1 s).
      let health = (await admin.get('/api/health')).body as { status: string; horizon?: unknown };
      for (let i = 0; i < 100 && health.status === 'ok'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        health = (await admin.get('/api/health')).body as typeof health;
      }
      expect(health).toMatchObject({
        status: 'degraded',
        projections: [],
        horizon: { application: 'left-open', state: 'idle in transaction' },
      });

      const exported = await admin.get('/api/admin/exports/ledger/checksum?format=csv');
      expect(exported.status).toBe(503);
      expect(exported.body).toMatchObject({ error: 'log_horizon_stalled' });
    } finally {
      await left.query('ROLLBACK').catch(() => {});
      await left.end();
    }
    expect((await admin.get('/api/health')).body).toEqual({ status: 'ok' });
    expect((await admin.get('/api/admin/exports/ledger/checksum?format=csv')).status).toBe(200);
  });
});
