import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AdminActivityPage, ProjectionsOverview, VerifyResult } from '@astra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer, until } from './support.ts';

/**
 * The audit trail of data access and operations: every download of finance data, verify run,
 * rebuild, lock and refused unlock is an event on the acting admin's own user stream, with the
 * admin as actor, and shows in the admin activity list.
 */

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Recorded {
  type: string;
  position: bigint;
  data: Record<string, unknown>;
  actor: unknown;
}

describe('the audit trail of admin data access and operations', () => {
  let server: TestServer;
  let admin: Client;
  /** A second session of the same admin, for reading the list after `admin` locked. */
  let viewer: Client;
  let adminId: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = server.client();
    adminId = (await admin.signInAsAdmin()).id;
    viewer = server.client();
    await viewer.signInAsAdmin();
  });
  afterAll(() => server?.close());

  /** The admin's own user stream, as recorded. */
  const adminEvents = async (): Promise<Recorded[]> => {
    const events: Recorded[] = [];
    for await (const event of server.deps.ledger.store.readStream(`user-${adminId}`)) {
      events.push({
        type: event.type,
        position: event.position,
        data: event.data as Record<string, unknown>,
        actor: event.metadata.actor,
      });
    }
    return events;
  };

  /** Waits until the admin's stream has an event after `after` that `test` accepts. */
  const recorded = async (
    after: bigint,
    test: (event: Recorded) => boolean,
    timeoutMs = 10_000,
  ): Promise<Recorded> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await adminEvents()).find((e) => e.position > after && test(e));
      if (found) return found;
      if (Date.now() > deadline) throw new Error('the action was not recorded');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const headOfAdmin = async () => (await adminEvents()).at(-1)?.position ?? 0n;

  const asAdmin = { kind: 'user', userId: '', role: 'admin' };
  const actorIsAdmin = (event: Recorded) =>
    expect(event.actor).toEqual({ ...asAdmin, userId: adminId });

  /** A GET with the admin's session, its body as bytes. */
  const download = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie: admin.cookie! } });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  };

  const activity = async (query = '') => {
    const page = await admin.get<AdminActivityPage>(`/api/admin/activity?limit=50${query}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return page.body.items;
  };
  /**
   * The activity list from `event` back. The list reads the log newest first up to its visibility
   * bound, which another test's open transaction on the same PostgreSQL server holds back for a
   * moment: wait until the list reaches the event.
   */
  const activityFrom = (event: Recorded, query: string) =>
    until('the activity list to show the event', async () => {
      const entries = await activity(query);
      return entries[0]?.position === String(event.position) ? entries : null;
    });

  it('records a ledger export with its range, format and the checksum of the body sent, once it ended', async () => {
    const since = await headOfAdmin();
    const from = '2020-01-01T00:00:00.000Z';
    const to = '2099-01-01T00:00:00.000Z';
    const body = await download(`/api/admin/exports/ledger?format=csv&from=${from}&to=${to}`);
    const event = await recorded(since, (e) => e.type === 'AdminDataExported');
    actorIsAdmin(event);
    // Its start was on record before the first byte: a crash mid-download leaves that line.
    const started = await recorded(since, (e) => e.type === 'AdminExportStarted');
    actorIsAdmin(started);
    expect(started.position).toBeLessThan(event.position);
    expect(started.data).toEqual({ format: 'csv', from, to });
    expect(event.data).toEqual({
      kind: 'ledger',
      format: 'csv',
      from,
      to,
      complete: true,
      sha256: sha256(body),
      bytes: body.length,
      rows: expect.any(Number),
    });

    // The activity list shows who downloaded what.
    const [entry] = await activityFrom(event, '&type=AdminDataExported');
    expect(entry).toMatchObject({
      action: 'AdminDataExported',
      adminId,
      adminEmail: 'admin@example.com',
      position: String(event.position),
    });
    expect(entry!.detail).toContain(sha256(body));
    expect(entry!.detail).toContain('csv');
    expect(entry!.detail).toContain(from);

    // An open range is recorded as open.
    const since2 = event.position;
    const jsonl = await download('/api/admin/exports/ledger?format=jsonl');
    const open = await recorded(since2, (e) => e.type === 'AdminDataExported');
    expect(open.data).toMatchObject({
      kind: 'ledger',
      format: 'jsonl',
      from: null,
      to: null,
      complete: true,
      sha256: sha256(jsonl),
      bytes: jsonl.length,
    });
  });

  it('records a month report download (CSV) with the checksum of its body; the page view (JSON) is not a download', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const since = await headOfAdmin();
    await download(`/api/admin/reports/monthly?month=${month}&format=json`);
    const body = await download(`/api/admin/reports/monthly?month=${month}&format=csv`);
    const event = await recorded(since, (e) => e.type === 'AdminDataExported');
    actorIsAdmin(event);
    expect(event.data).toEqual({
      kind: 'report',
      format: 'csv',
      month,
      complete: true,
      sha256: sha256(body),
      bytes: body.length,
    });
    const exported = (await adminEvents()).filter(
      (e) => e.position > since && e.type === 'AdminDataExported',
    );
    expect(exported).toHaveLength(1);
  });

  it('records verify runs and rebuild starts with the admin who asked', async () => {
    let since = await headOfAdmin();
    const verify = await admin.post<VerifyResult>('/api/admin/projections/verify');
    expect(verify.status).toBe(200);
    const run = await recorded(since, (e) => e.type === 'AdminVerifyRun');
    actorIsAdmin(run);
    expect(run.data).toEqual({ ok: verify.body.ok, at: verify.body.at });

    since = run.position;
    const rebuild = await admin.post('/api/admin/projections/rebuild');
    expect(rebuild.status).toBe(202);
    const started = await recorded(since, (e) => e.type === 'AdminRebuildStarted');
    actorIsAdmin(started);
    expect(started.data).toEqual({ rebuildId: expect.any(String), target: expect.any(Number) });
    // The rebuild ends before the next test (it would hold the read models' slot).
    for (;;) {
      const overview = await admin.get<ProjectionsOverview>('/api/admin/projections');
      if (overview.body.rebuild.state !== 'running') break;
      await new Promise((resolve) => setImmediate(resolve));
    }

    const entries = await activityFrom(started, '&type=AdminVerifyRun,AdminRebuildStarted');
    expect(entries.map((e) => e.action)).toEqual(['AdminRebuildStarted', 'AdminVerifyRun']);
    expect(entries.every((e) => e.adminId === adminId)).toBe(true);
    expect(entries[0]!.detail).toContain(String(started.data.rebuildId));
  });

  it('refuses an activity filter the list never shows', async () => {
    const bad = await admin.get('/api/admin/activity?type=Nope');
    expect(bad.status).toBe(400);
  });

  it('records an export the client left half way: not complete, no checksum, the bytes sent', async () => {
    // A long account, so that the body is far larger than the connection buffers.
    const member = server.client();
    const { id } = await member.signIn(`long-${randomUUID()}@example.com`, 'Long History');
    const base = Date.now();
    const events = Array.from({ length: 40_000 }, (_, i) => ({
      type: 'CreditsGranted',
      data: {
        grantId: `cut-${i}`,
        kind: 'promotional',
        amount: 1,
        reason: 'A long history to download',
        tierId: null,
        reference: null,
      },
      metadata: {
        occurredAt: new Date(base + i).toISOString(),
        actor: { kind: 'system' },
        correlationId: randomUUID(),
        causationId: null,
        schemaVersion: 1,
      },
    }));
    for (let i = 0; i < events.length; i += 2_000)
      await server.deps.ledger.store.append(`credits-${id}`, events.slice(i, i + 2_000), {
        expected: 'any',
      });

    const since = await headOfAdmin();
    // The client reads the headers and goes away.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/admin/exports/ledger?format=csv`,
        { headers: { cookie: admin.cookie! } },
        (res) => {
          expect(res.statusCode).toBe(200);
          req.destroy();
          resolve();
        },
      );
      req.on('error', (error) => {
        if ((error as { code?: string }).code !== 'ECONNRESET') reject(error);
      });
      req.end();
    });
    const event = await recorded(since, (e) => e.type === 'AdminDataExported', 30_000);
    actorIsAdmin(event);
    expect(event.data).toMatchObject({
      kind: 'ledger',
      format: 'csv',
      complete: false,
      sha256: null,
    });
    expect(event.data.bytes).toBeGreaterThan(0);
    expect(event.data.rows).toBeLessThan(40_000);
    const [entry] = await activityFrom(event, '&type=AdminDataExported');
    expect(entry!.detail).toMatch(/cut short/);
  }, 120_000);

  it('records a lock, and unlocks refused by the rate limit (the first of the window)', async () => {
    let since = await headOfAdmin();
    expect((await admin.post('/api/admin/lock')).status).toBe(200);
    const locked = await recorded(since, (e) => e.type === 'AdminLocked');
    actorIsAdmin(locked);
    expect((await admin.get('/api/admin/stats')).status).toBe(403);

    // Wrong passwords until the limiter refuses, then once more.
    since = locked.position;
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i++) {
      status = (await admin.post('/api/admin/unlock', { password: 'wrong' })).status;
    }
    expect(status).toBe(429);
    expect((await admin.post('/api/admin/unlock', { password: 'wrong' })).status).toBe(429);
    const refused = await recorded(since, (e) => e.type === 'AdminUnlockRefused');
    actorIsAdmin(refused);
    expect(refused.data).toEqual({ reason: 'rate_limited' });
    const after = (await adminEvents()).filter((e) => e.position > since);
    expect(after.filter((e) => e.type === 'AdminUnlockRefused')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'AdminUnlockFailed').length).toBeGreaterThan(0);

    // Another session of the same admin, unlocked before, reads them in the activity list (once
    // the list reaches the refusal: see `activityFrom`).
    const page = await until('the activity list to show the refusal', async () => {
      const answer = await viewer.get<AdminActivityPage>(
        '/api/admin/activity?limit=5&type=AdminLocked,AdminUnlockRefused',
      );
      expect(answer.status).toBe(200);
      return answer.body.items[0]?.position === String(refused.position) ? answer : null;
    });
    const [refusal, lock] = page.body.items;
    expect(refusal).toMatchObject({
      action: 'AdminUnlockRefused',
      adminId,
      adminEmail: 'admin@example.com',
      position: String(refused.position),
      detail: expect.stringMatching(/rate limited/),
    });
    expect(lock).toMatchObject({
      action: 'AdminLocked',
      adminId,
      position: String(locked.position),
      detail: 'Locked the admin panel',
    });
  });
});
