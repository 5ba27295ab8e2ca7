import { randomUUID } from 'node:crypto';
import type {
  AdminActivityPage,
  AuditEntry,
  LedgerExplorerPage,
  ProjectionsOverview,
  RebuildStatus,
} from '@astra/contracts';
import { ledgerExplorerQuerySchema } from '@astra/contracts';
import { allProjections } from '@astra/projections';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorePage } from '../src/modules/finance/ledgerExplorer.ts';
import { type Client, caughtUp, startTestServer, type TestServer } from './support.ts';

const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
const token = () => randomUUID().replace(/-/g, '').slice(0, 10);
const PASSWORD = 'correct horse battery staple';

/** Every page of the explorer for a query, following `next` until it is null. */
async function allPages(client: Client, query: Record<string, string>) {
  const pages: LedgerExplorerPage[] = [];
  let after: string | null | undefined;
  for (let i = 0; i < 200; i++) {
    const params = new URLSearchParams({ ...query, ...(after ? { after } : {}) });
    const answer = await client.get<LedgerExplorerPage>(`/api/admin/ledger?${params}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    pages.push(answer.body);
    after = answer.body.next;
    if (after === null) return pages;
  }
  throw new Error('the explorer never reached the end');
}

const positionsOf = (items: { position: string }[]) => items.map((item) => BigInt(item.position));
const increasing = (positions: bigint[]) =>
  positions.every((p, i) => i === 0 || positions[i - 1]! < p);

// The same tests on both event stores: PostgreSQL (where the machine has it) and PGlite.
for (const storage of [undefined, 'pglite'] as const) {
  describe(`audit: ledger explorer, admin activity, projections (${storage ?? 'PostgreSQL where present'})`, () => {
    let server: TestServer;
    let admin: Client;
    let adminId: string;
    beforeAll(async () => {
      server = await startTestServer({}, storage);
      admin = server.client();
      adminId = (await admin.signInAsAdmin()).id;
    });
    afterAll(() => server?.close());

    const member = async () => {
      const client = server.client();
      const email = `member-${token()}@example.com`;
      const me = await client.signIn(email, 'Ada Lovelace');
      return { client, id: me.id, email, credits: me.remainingCredits };
    };
    const adjust = async (userId: string, amount: number, reason: string) => {
      const answer = await admin.post(
        `/api/admin/users/${userId}/credits`,
        { amount, reason },
        { 'idempotency-key': randomUUID() },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as { position: string };
    };

    it('authorizes every audit route: anonymous 401, user 403, locked admin 403, unlocked admin', async () => {
      const anonymous = server.client();
      const { client: user } = await member();
      const locked = server.client();
      await locked.signIn('admin@example.com');
      const routes: [string, string, number][] = [
        ['GET', '/api/admin/ledger', 200],
        ['GET', '/api/admin/activity', 200],
        ['GET', '/api/admin/projections', 200],
        ['POST', '/api/admin/projections/verify', 200],
      ];
      for (const [method, path, status] of routes) {
        const body = method === 'POST' ? {} : undefined;
        expect((await anonymous.request(method, path, body)).status, path).toBe(401);
        expect((await user.request(method, path, body)).body.error, path).toBe('admin_required');
        expect((await locked.request(method, path, body)).body.error, path).toBe('admin_locked');
        const ok = await admin.request(method, path, body);
        expect(ok.status, `${method} ${path}: ${JSON.stringify(ok.body)}`).toBe(status);
      }
      // The rebuild's refusals (its success has a test of its own).
      for (const client of [anonymous, user, locked]) {
        const refused = await client.post('/api/admin/projections/rebuild');
        expect(refused.status).toBe(client === anonymous ? 401 : 403);
      }
      // Bad queries are 400s.
      for (const path of [
        '/api/admin/ledger?after=x',
        '/api/admin/ledger?limit=0',
        '/api/admin/ledger?type=Credits-Spent',
        '/api/admin/ledger?actor=robot',
        '/api/admin/ledger?userId=nope',
        '/api/admin/ledger?from=yesterday',
        '/api/admin/activity?before=-1',
        '/api/admin/activity?limit=201',
      ]) {
        expect((await admin.get(path)).body.error, path).toBe('invalid_request');
      }
    });

    it('explores the credit log: filters by type, actor, user and time, pages by position, balances by replay', async () => {
      const ada = await member();
      const bob = await member();
      const beforeAdjustments = new Date().toISOString();
      const added = await adjust(ada.id, 7, 'Goodwill for a slow reading');
      await adjust(bob.id, 3, 'Test credits');
      const made = await ada.client.post('/api/readings/life-path', lifePath);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await adjust(ada.id, -2, 'Correction');
      const afterAdjustments = new Date().toISOString();

      // One user: every event of their credit stream, with the balance /api/me/ledger shows.
      await caughtUp(server);
      const adaPages = await allPages(admin, { userId: ada.id, limit: '2' });
      const adaItems = adaPages.flatMap((page) => page.items);
      expect(adaPages.length).toBeGreaterThan(2);
      expect(adaItems.every((item) => item.userId === ada.id && item.email === ada.email)).toBe(
        true,
      );
      expect(increasing(positionsOf(adaItems))).toBe(true);
      const mine = await ada.client.get('/api/me/ledger');
      const ledger = (mine.body.items as { position: string; balanceAfter: number; type: string }[])
        .slice()
        .sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
      expect(adaItems.map((item) => [item.position, item.type, item.balanceAfter])).toEqual(
        ledger.map((entry) => [String(entry.position), entry.type, entry.balanceAfter]),
      );
      const spend = adaItems.find((item) => item.type === 'CreditsSpent')!;
      expect(spend).toMatchObject({ actor: `user:${ada.id}`, credits: expect.any(Number) });
      expect(spend.credits).toBeLessThan(0);

      // By type, and by actor: the adjustments, by the admin (named by e-mail).
      const adjustments = (await allPages(admin, { type: 'CreditsAdjusted', limit: '50' })).flatMap(
        (page) => page.items,
      );
      expect(adjustments.every((item) => item.type === 'CreditsAdjusted')).toBe(true);
      const adaAdjustment = adjustments.find((item) => item.position === added.position);
      expect(adaAdjustment).toMatchObject({
        userId: ada.id,
        email: ada.email,
        credits: 7,
        actor: 'admin:admin@example.com',
        causeFields: expect.objectContaining({ reason: 'Goodwill for a slow reading' }),
        description: 'Goodwill for a slow reading',
      });
      expect(adaAdjustment!.correlationId).not.toBe('');
      const byAdmin = (await allPages(admin, { actor: 'admin', limit: '50' })).flatMap(
        (page) => page.items,
      );
      expect(byAdmin.length).toBeGreaterThanOrEqual(3);
      expect(byAdmin.every((item) => item.actor.startsWith('admin:'))).toBe(true);
      expect(byAdmin.map((item) => item.position)).toContain(added.position);
      const byUsers = (await allPages(admin, { actor: 'user', userId: ada.id })).flatMap(
        (page) => page.items,
      );
      expect(byUsers.map((item) => item.type)).toEqual(['CreditsSpent']);
      const bySystem = (await allPages(admin, { actor: 'system', userId: bob.id })).flatMap(
        (page) => page.items,
      );
      expect(bySystem.map((item) => item.type)).toContain('CreditAccountOpened');
      expect(bySystem.every((item) => item.actor === 'system')).toBe(true);

      // A time range, half open: the adjustments and the reading, not the accounts' openings.
      const inRange = (
        await allPages(admin, { from: beforeAdjustments, to: afterAdjustments, limit: '3' })
      ).flatMap((page) => page.items);
      const types = inRange.filter((item) => item.userId === ada.id).map((item) => item.type);
      expect(types).toEqual(['CreditsAdjusted', 'CreditsSpent', 'CreditsAdjusted']);
      expect(
        inRange.every(
          (item) => item.occurredAt >= beforeAdjustments && item.occurredAt < afterAdjustments,
        ),
      ).toBe(true);
      const empty = await admin.get<LedgerExplorerPage>(
        `/api/admin/ledger?${new URLSearchParams({ to: beforeAdjustments, userId: bob.id, type: 'CreditsAdjusted' })}`,
      );
      expect(empty.body).toEqual({ items: [], next: null });

      // Pages of 2 over the whole log hold exactly the items of one big page: no gap, no repeat.
      const small = (await allPages(admin, { limit: '2' })).flatMap((page) => page.items);
      const big = await admin.get<LedgerExplorerPage>('/api/admin/ledger?limit=200');
      expect(big.body.next).toBeNull();
      expect(small).toEqual(big.body.items);
      // A last page that is exactly full says so: no empty page after it.
      const exact = await admin.get<LedgerExplorerPage>(
        `/api/admin/ledger?limit=${big.body.items.length}`,
      );
      expect(exact.body).toEqual({ items: big.body.items, next: null });
      const allButLast = await admin.get<LedgerExplorerPage>(
        `/api/admin/ledger?limit=${big.body.items.length - 1}`,
      );
      expect(allButLast.body.next).toBe(big.body.items.at(-2)!.position);
      expect(new Set(small.map((item) => item.position)).size).toBe(small.length);
      expect(increasing(positionsOf(small))).toBe(true);
      // Every account's balance after its last event is what its profile says.
      for (const who of [ada, bob]) {
        const last = small.filter((item) => item.userId === who.id).at(-1)!;
        const me = await who.client.get('/api/me');
        expect(last.balanceAfter).toBe(me.body.remainingCredits);
      }
    });

    it('bounds the work of a page: a scan cut short answers next, and the pages that follow add up', async () => {
      const { id } = await member();
      await adjust(id, 4, 'Bounded');
      const store = server.deps.ledger.store;
      const query = ledgerExplorerQuerySchema.parse({ actor: 'admin', limit: '50' });
      const whole = await explorePage(store, query);
      const pieces: AuditEntry[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await explorePage(store, { ...query, after }, { scanLimit: 3 });
        pages++;
        pieces.push(...page.items);
        if (page.next === null) break;
        after = page.next;
      }
      expect(pages).toBeGreaterThan(3);
      expect(pieces).toEqual(whole.items);
      expect(pieces.map((item) => item.position)).toContain(
        whole.items.find((item) => item.userId === id)!.position,
      );
    });

    it('lists what admins did, newest first: unlock attempts and commands, with the admin e-mail', async () => {
      const target = await member();
      const other = server.client();
      const { id } = await other.signIn('admin@example.com');
      expect(id).toBe(adminId);
      expect((await other.post('/api/admin/unlock', { password: 'wrong' })).status).toBe(403);
      expect((await other.post('/api/admin/unlock', { password: PASSWORD })).status).toBe(200);
      const adjusted = await adjust(target.id, 5, 'Apology for the outage');
      expect((await admin.post(`/api/admin/users/${target.id}/block`)).status).toBe(200);

      const page = await admin.get<AdminActivityPage>('/api/admin/activity?limit=4');
      expect(page.status).toBe(200);
      const [blocked, adjustment, unlocked, failed] = page.body.items;
      expect(blocked).toMatchObject({
        action: 'UserBlocked',
        adminId,
        adminEmail: 'admin@example.com',
        targetUserId: target.id,
        targetEmail: target.email,
      });
      expect(adjustment).toMatchObject({
        position: adjusted.position,
        action: 'CreditsAdjusted',
        adminId,
        adminEmail: 'admin@example.com',
        targetUserId: target.id,
        targetEmail: target.email,
        detail: '+5 credits: Apology for the outage',
      });
      expect(adjustment!.correlationId).not.toBe('');
      expect(unlocked).toMatchObject({
        action: 'AdminUnlocked',
        adminId,
        adminEmail: 'admin@example.com',
        targetUserId: adminId,
        detail: expect.stringMatching(/^Unlocked the admin panel until /),
      });
      expect(failed).toMatchObject({
        action: 'AdminUnlockFailed',
        adminEmail: 'admin@example.com',
        detail: 'Wrong admin password',
      });
      expect(page.body.next).toBe(failed!.position);

      // Older pages follow on, newest first, without repeats, down to the first unlock.
      const seen = [...page.body.items];
      let before = page.body.next;
      while (before) {
        const older = await admin.get<AdminActivityPage>(
          `/api/admin/activity?before=${before}&limit=3`,
        );
        seen.push(...older.body.items);
        before = older.body.next;
      }
      const positions = positionsOf(seen);
      expect(positions.every((p, i) => i === 0 || positions[i - 1]! > p)).toBe(true);
      expect(seen.filter((item) => item.action === 'AdminUnlocked').length).toBeGreaterThanOrEqual(
        2,
      );
      expect(seen.every((item) => item.adminId === adminId)).toBe(true);
    });

    it('shows each projection against the head, and keeps the verify result it runs', async () => {
      await caughtUp(server);
      const overview = await admin.get<ProjectionsOverview>('/api/admin/projections');
      expect(overview.status).toBe(200);
      const { head, projections } = overview.body;
      expect(overview.body.projector).toEqual({ mode: 'in-process', leaders: [] });
      expect(BigInt(head.position)).toBeGreaterThan(0n);
      expect(head.at).not.toBeNull();
      expect(projections.map((p) => p.name)).toEqual(allProjections.map((p) => p.name));
      for (const projection of projections) {
        expect(projection).toMatchObject({
          position: head.position,
          lagEvents: 0,
          lagSeconds: 0,
          status: 'running',
          error: null,
        });
      }

      const verified = await admin.post('/api/admin/projections/verify');
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ ok: true, source: 'panel' });
      expect(verified.body.lines.at(-1)).toMatch(/^Ledger verified: \d+ accounts/);
      const after = await admin.get<ProjectionsOverview>('/api/admin/projections');
      expect(after.body.lastVerify).toEqual(verified.body);
    });

    it('counts a projection’s lag in events and seconds while it is behind', async () => {
      await caughtUp(server);
      const before = await admin.get<ProjectionsOverview>('/api/admin/projections');
      const { id } = await member();
      await adjust(id, 1, 'Lag');
      // Put one projection back by its checkpoint: its lag is the events it has not applied.
      const { db } = server.deps;
      await caughtUp(server);
      const feedback = before.body.projections.find((p) => p.name === 'feedback')!;
      await sql`UPDATE read.checkpoints SET position = ${feedback.position}::bigint WHERE name = 'feedback'`.execute(
        db,
      );
      const behind = await admin.get<ProjectionsOverview>('/api/admin/projections');
      const lagging = behind.body.projections.find((p) => p.name === 'feedback')!;
      expect(lagging.position).toBe(feedback.position);
      expect(lagging.lagEvents).toBeGreaterThanOrEqual(4); // sign-in, its credits, the adjustment
      expect(lagging.lagSeconds).toBeGreaterThanOrEqual(0);
      // Positions have gaps: the lag is counted in events, not positions.
      expect(BigInt(lagging.lagEvents)).toBeLessThan(
        BigInt(behind.body.head.position) - BigInt(feedback.position),
      );
      // Putting it back where it was: the projector re-applies nothing it had (feedback rows are
      // keyed), and the page shows it caught up again once the next event arrives.
      await sql`UPDATE read.checkpoints SET position = ${behind.body.head.position}::bigint WHERE name = 'feedback'`.execute(
        db,
      );
    });

    it('rebuilds from the panel: 202, a second is 409, progress reaches done, reads answer meanwhile', async () => {
      const { client, id } = await member();
      await adjust(id, 6, 'Before the rebuild');
      expect((await admin.post('/api/admin/projections/verify')).status).toBe(200);
      // A log long enough for the rebuild to take a while (on PGlite too, where every statement
      // waits its turn on the one connection): events of no read model's, in one append.
      const filler = Array.from({ length: 20_000 }, (_, i) => ({ type: 'Filler', data: { i } }));
      await server.deps.ledger.store.append(`filler-${randomUUID()}`, filler, {
        expected: 'no_stream',
      });
      await caughtUp(server, 60_000);
      const before = (await client.get('/api/me/ledger')).body;

      const started = await admin.post<RebuildStatus>('/api/admin/projections/rebuild');
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      expect(started.body).toMatchObject({ state: 'running', finishedAt: null, error: null });
      expect(started.body.startedAt).not.toBeNull();
      expect(started.body.target).toBeGreaterThan(20_000);
      // A second is refused while it runs; reads go on beside it.
      const [refused, ...reads] = await Promise.all([
        admin.post('/api/admin/projections/rebuild'),
        ...Array.from({ length: 3 }, () => client.get('/api/me/ledger')),
      ]);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('rebuild_running');
      for (const reading of reads) expect(reading.body).toEqual(before);

      let status: RebuildStatus = started.body;
      const deadline = Date.now() + 60_000;
      while (status.state === 'running') {
        // The live read models answer throughout.
        const reading = await client.get('/api/me/ledger');
        expect(reading.body).toEqual(before);
        status = (await admin.get<ProjectionsOverview>('/api/admin/projections')).body.rebuild;
        if (Date.now() > deadline) throw new Error('the rebuild never finished');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toMatchObject({
        state: 'done',
        error: null,
        startedAt: started.body.startedAt,
      });
      expect(status.target).toBe(started.body.target);
      expect(status.replayed).toBeGreaterThanOrEqual(status.target);
      expect(status.finishedAt).not.toBeNull();

      // The swapped-in tables: the same answers, the verify result kept, and they verify.
      expect((await client.get('/api/me/ledger')).body).toEqual(before);
      const overview = await admin.get<ProjectionsOverview>('/api/admin/projections');
      expect(overview.body.lastVerify?.source).toBe('panel');
      await caughtUp(server);
      const verified = await admin.post('/api/admin/projections/verify');
      expect(verified.body.ok, verified.body.lines.join('\n')).toBe(true);
    });

    it('holds a rebuild off while another process runs one, and takes over from one that died', async () => {
      const { db } = server.deps;
      // Another process's rebuild, alive: its row is the one running.
      const other = randomUUID();
      await sql`INSERT INTO read.rebuild_runs
        (id, source, state, started_at, heartbeat_at, replayed, target, schema_name)
        VALUES (${other}, 'cli', 'running', now(), now(), 10, 100, 'read_rebuild_1_1')`.execute(db);
      const refused = await admin.post('/api/admin/projections/rebuild');
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('rebuild_running');
      const shown = await admin.get<ProjectionsOverview>('/api/admin/projections');
      expect(shown.body.rebuild).toMatchObject({ state: 'running', replayed: 10, target: 100 });

      // Silent for longer than a live one ever is: it died, and the next rebuild takes over.
      await sql`UPDATE read.rebuild_runs SET heartbeat_at = now() - interval '2 minutes'
        WHERE id = ${other}`.execute(db);
      const dead = await admin.get<ProjectionsOverview>('/api/admin/projections');
      expect(dead.body.rebuild).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(/^Stopped without finishing/),
      });
      const started = await admin.post<RebuildStatus>('/api/admin/projections/rebuild');
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      let status = started.body;
      while (status.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await admin.get<ProjectionsOverview>('/api/admin/projections')).body.rebuild;
      }
      expect(status.state).toBe('done');
      const { rows } = await sql<{ state: string; error: string }>`
        SELECT state, error FROM read.rebuild_runs WHERE id = ${other}`.execute(db);
      expect(rows[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/^Stopped/) });
    });
  });
}
