import { createHash, randomUUID } from 'node:crypto';
import { streams } from '@astra/ledger';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../../../packages/ledger/src/credits/businessLogic.ts';
import { systemContext } from '../src/ledger/ledger.ts';
import { eventCount, startTestServer, type TestServer } from './support.ts';

/** Polls `check` until it holds (no fixed sleeps), failing after `timeoutMs`. */
async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('hardening', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const balanceOf = async (userId: string) =>
    (await server.deps.ledger.load('credits', userId)).state.balance;

  describe('balances past 2^31 and the ceiling', () => {
    it('refuses an admin grant past the ceiling with 409 balance_limit, writing nothing', async () => {
      const admin = server.client();
      await admin.signInAsAdmin();
      const rich = server.client();
      const { id } = await rich.signIn(`rich-${randomUUID()}@example.com`);
      await server.deps.ledger.handle(
        'credits',
        id,
        {
          type: 'GrantCredits',
          grantId: 'promo-huge',
          kind: 'promotional',
          amount: MAX_BALANCE - 15,
          reason: 'Huge promotion',
          tierId: null,
          reference: null,
        },
        systemContext(),
      );
      const upTo = await admin.post(`/api/admin/users/${id}/credits`, {
        amount: 5,
        reason: 'Up to the ceiling',
      });
      expect(upTo).toMatchObject({ status: 200, body: { remainingCredits: MAX_BALANCE } });
      const before = await eventCount(server);
      const past = await admin.post(`/api/admin/users/${id}/credits`, {
        amount: 1,
        reason: 'One too many',
      });
      expect(past.status).toBe(409);
      expect(past.body).toMatchObject({
        error: 'balance_limit',
        limit: MAX_BALANCE,
        balance: MAX_BALANCE,
      });
      expect(await eventCount(server)).toBe(before);
      // Numbers stay numbers in the API's JSON.
      expect((await rich.get('/api/me')).body).toMatchObject({
        remainingCredits: MAX_BALANCE,
        totalCredits: MAX_BALANCE,
      });
    });

    it('a balance recorded past 2^31 (before the ceiling) projects: others still sign up, and it reads as a number', async () => {
      const whale = server.client();
      const { id } = await whale.signIn(`whale-${randomUUID()}@example.com`);
      // As the 2,148 grants of 1,000,000 left it, before the ceiling existed.
      await server.deps.ledger.store.append(
        streams.credits(id),
        Array.from({ length: 3 }, (_, i) => ({
          type: 'CreditsGranted',
          data: {
            grantId: `old-${i}`,
            kind: 'promotional',
            amount: 1_000_000_000,
            reason: 'Old grant',
            tierId: null,
            reference: null,
          },
          metadata: { ...systemContext(), occurredAt: new Date().toISOString(), schemaVersion: 1 },
        })),
        { expected: 'stream_exists' },
      );
      const newcomer = await server.client().signIn(`new-${randomUUID()}@example.com`);
      expect(newcomer.remainingCredits).toBe(10);
      const me = await eventually(async () => {
        const answer = await whale.get('/api/me');
        return answer.body.remainingCredits === 3_000_000_010 && answer.body;
      });
      expect(me).toMatchObject({ remainingCredits: 3_000_000_010, totalCredits: 3_000_000_010 });
      const ledger = await whale.get('/api/me/ledger');
      expect(ledger.body.items[0]).toMatchObject({
        amount: 1_000_000_000,
        balanceAfter: 3_000_000_010,
      });
      expect((await server.client().get('/api/health')).body).toEqual({ status: 'ok' });
    });
  });

  describe('a projection that cannot apply an event', () => {
    it('stops alone: health says degraded naming it, sign-ups go on, and it resumes after the fix', async () => {
      const { db } = server.deps;
      const user = server.client();
      const { id } = await user.signIn(`poison-${randomUUID()}@example.com`);
      await sql`ALTER TABLE read.usage_logs ADD CONSTRAINT no_poison CHECK (question IS DISTINCT FROM 'poison')`.execute(
        db,
      );
      try {
        const readingId = randomUUID();
        await server.deps.ledger.handle(
          'reading',
          readingId,
          {
            type: 'RequestReading',
            readingId,
            userId: id,
            spendId: randomUUID(),
            appId: 3,
            appName: 'Tarot Traditional',
            input: { question: 'poison' },
            firstName: 'Ada',
            question: 'poison',
            creditsCharged: 4,
          },
          systemContext(),
        );
        const degraded = await eventually(async () => {
          const answer = await server.client().get('/api/health');
          return answer.body.status === 'degraded' && answer;
        });
        expect(degraded.status).toBe(200);
        expect(degraded.body.projections).toEqual([
          {
            name: 'usage_logs',
            state: 'failed',
            position: expect.stringMatching(/^\d+$/),
            error: expect.stringContaining('no_poison'),
            since: expect.any(String),
          },
        ]);
        // The other projections go on: a sign-up is answered with its profile.
        const other = await server.client().signIn(`meanwhile-${randomUUID()}@example.com`);
        expect(other.remainingCredits).toBe(10);
      } finally {
        await sql`ALTER TABLE read.usage_logs DROP CONSTRAINT IF EXISTS no_poison`.execute(db);
      }
      await eventually(async () => (await server.client().get('/api/health')).body.status === 'ok');
    }, 60_000);
  });

  describe('Idempotency-Key claims cut off by a crash', () => {
    const hashOf = (path: string, body: unknown) =>
      createHash('sha256')
        .update(`POST ${path}\n${JSON.stringify(body)}`)
        .digest('hex');

    /** A member's account to adjust: an admin's own credits are another admin's to adjust. */
    const member = async () =>
      (await server.client().signIn(`member-${randomUUID()}@example.com`)).id;

    /** A pending claim, as a process killed mid-request leaves it. */
    const leaveClaim = (
      key: string,
      requestHash: string,
      { createdAgoS, leaseLeftS }: { createdAgoS: number; leaseLeftS: number | null },
    ) =>
      sql`INSERT INTO app.idempotency_keys (key, request_hash, status, body, created_at, lease_until, claim_token)
        VALUES (${key}, ${requestHash}, NULL, NULL, now() - make_interval(secs => ${createdAgoS}),
          ${leaseLeftS === null ? null : sql`now() + make_interval(secs => ${leaseLeftS})`},
          ${leaseLeftS === null ? null : 'the-dead-process'})`.execute(server.deps.db);

    it('takes over a claim whose lease ran out: the retry gets the real answer, applied once', async () => {
      const admin = server.client();
      const me = await admin.signInAsAdmin();
      const target = await member();
      const path = `/api/admin/users/${target}/credits`;
      const body = { amount: 9, reason: 'After a crash' };
      await leaveClaim(`${me.id}:crash-1`, hashOf(path, body), {
        createdAgoS: 600,
        leaseLeftS: -300,
      });
      const balance = await balanceOf(target);
      const before = await eventCount(server);

      const retry = await admin.post(path, body, { 'Idempotency-Key': 'crash-1' });
      expect(retry).toMatchObject({
        status: 200,
        body: { amount: 9, remainingCredits: balance + 9 },
      });
      expect(await eventCount(server)).toBe(before + 1);
      // From now on the recorded outcome answers.
      const again = await admin.post(path, body, { 'Idempotency-Key': 'crash-1' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(retry.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await eventCount(server)).toBe(before + 1);
      expect(await balanceOf(target)).toBe(balance + 9);
    });

    it('takes over a claim from before leases once its lease from created_at is over', async () => {
      const admin = server.client();
      const me = await admin.signInAsAdmin();
      const path = `/api/admin/users/${await member()}/credits`;
      const body = { amount: 4, reason: 'Old claim' };
      await leaveClaim(`${me.id}:crash-2`, hashOf(path, body), {
        createdAgoS: 3600,
        leaseLeftS: null,
      });
      const before = await eventCount(server);
      const retry = await admin.post(path, body, { 'Idempotency-Key': 'crash-2' });
      expect(retry.status).toBe(200);
      expect(await eventCount(server)).toBe(before + 1);
    });

    /** The claim as a process leaves it that was killed after its command, before its answer. */
    const cutAfterTheCommand = (key: string) =>
      sql`UPDATE app.idempotency_keys SET status = NULL, body = NULL,
          lease_until = now() - make_interval(secs => 60), claim_token = 'the-dead-process'
        WHERE key = ${key}`.execute(server.deps.db);

    it('re-runs a request cut off after its command without applying it twice: adjustment, reading, feedback', async () => {
      const admin = server.client();
      const me = await admin.signInAsAdmin();
      const target = await member();
      const adjust = `/api/admin/users/${target}/credits`;
      const first = await admin.post(
        adjust,
        { amount: 40, reason: 'Cut off after the append' },
        { 'Idempotency-Key': 'after-1' },
      );
      expect(first.status).toBe(200);
      const reading = await admin.post(
        '/api/readings/tarot-traditional',
        { firstName: 'Ada', question: 'Will the engine run?' },
        { 'Idempotency-Key': 'after-2' },
      );
      expect(reading.status).toBe(201);
      const feedback = await admin.post(
        '/api/feedback',
        { message: 'Lovely readings' },
        { 'Idempotency-Key': 'after-3' },
      );
      expect(feedback.status).toBe(201);
      const balance = await balanceOf(me.id);
      const targetBalance = await balanceOf(target);
      const before = await eventCount(server);

      for (const key of ['after-1', 'after-2', 'after-3'])
        await cutAfterTheCommand(`${me.id}:${key}`);
      const adjustAgain = await admin.post(
        adjust,
        { amount: 40, reason: 'Cut off after the append' },
        { 'Idempotency-Key': 'after-1' },
      );
      expect(adjustAgain).toMatchObject({
        status: 200,
        body: { remainingCredits: targetBalance },
      });
      const readingAgain = await admin.post(
        '/api/readings/tarot-traditional',
        { firstName: 'Ada', question: 'Will the engine run?' },
        { 'Idempotency-Key': 'after-2' },
      );
      expect(readingAgain.status).toBe(201);
      expect(readingAgain.body.readingId).toBe(reading.body.readingId);
      expect(readingAgain.body.result).toEqual(reading.body.result);
      const feedbackAgain = await admin.post(
        '/api/feedback',
        { message: 'Lovely readings' },
        { 'Idempotency-Key': 'after-3' },
      );
      expect(feedbackAgain.body.feedbackId).toBe(feedback.body.feedbackId);
      // Nothing was applied a second time: no event, no credit.
      expect(await eventCount(server)).toBe(before);
      expect(await balanceOf(me.id)).toBe(balance);
      expect(await balanceOf(target)).toBe(targetBalance);
    });

    it('still answers 409 request_in_progress while a claim is within its lease', async () => {
      const admin = server.client();
      const me = await admin.signInAsAdmin();
      const path = `/api/admin/users/${me.id}/credits`;
      const body = { amount: 3, reason: 'Still running' };
      await leaveClaim(`${me.id}:live-1`, hashOf(path, body), {
        createdAgoS: 10,
        leaseLeftS: 290,
      });
      const before = await eventCount(server);
      const retry = await admin.post(path, body, { 'Idempotency-Key': 'live-1' });
      expect(retry).toMatchObject({ status: 409, body: { error: 'request_in_progress' } });
      expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await eventCount(server)).toBe(before);
      // Another request with that key is refused as before, lease or not.
      const other = await admin.post(
        path,
        { amount: 1, reason: 'x' },
        { 'Idempotency-Key': 'live-1' },
      );
      expect(other).toMatchObject({ status: 422, body: { error: 'idempotency_key_reused' } });
    });
  });
});
