/** The voice guide over HTTP with ElevenLabs (a loopback double): sessions, charges, the clock, refunds, refusals, the sweep. */
import { randomUUID } from 'node:crypto';
import { verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { recoverVoiceSessions } from '../src/modules/voice/recovery.ts';
import { API_KEY, agents, startElevenLabsDouble } from './elevenLabsDouble.ts';
import { caughtUp, memberWith, startTestServer, type TestServer } from './support.ts';
import {
  balanceOf,
  creditEvents,
  end,
  lifePath,
  readingEvents,
  readingOf,
  start,
  tarot,
} from './voiceFixtures.ts';

// The same tests on both event stores: PostgreSQL (where the machine has it) and PGlite.
for (const storage of [undefined, 'pglite'] as const) {
  describe(`the voice guide over HTTP (ElevenLabs double, ${storage ?? 'PostgreSQL where present'})`, () => {
    let server: TestServer;
    let eleven: Awaited<ReturnType<typeof startElevenLabsDouble>>;
    let now = new Date();
    const advance = (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000);
    };
    beforeAll(async () => {
      eleven = await startElevenLabsDouble();
      server = await startTestServer(
        {
          ELEVENLABS_API_KEY: API_KEY,
          ELEVENLABS_AGENT_IDS: Object.entries(agents)
            .map(([kind, id]) => `${kind}=${id}`)
            .join(','),
          ELEVENLABS_BASE_URL: eleven.url,
          ELEVENLABS_TIMEOUT_MS: '800',
        },
        storage,
        { clock: () => now },
      );
    });
    afterAll(async () => {
      await server?.close();
      eleven?.server?.close();
    });

    it('starts the included session with a signed URL for the agent of the reading type, then charges reactivations', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 20);
      const readingId = await readingOf(member, 'tarot-traditional', tarot);
      const before = await balanceOf(member);

      const fresh = await member.get(`/api/readings/${readingId}/voice`);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({
        used: false,
        active: null,
        nextSessionCost: 0,
        sessionSeconds: 300,
        reactivationCost: 2,
      });

      const asked = eleven.asked.length;
      const first = await start(member, readingId);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(eleven.asked.slice(asked)).toEqual([{ agentId: 'agent_tarot', apiKey: API_KEY }]);
      expect(first.body.message).toBe('Voice agent activated! 5 minutes remaining.');
      expect(first.body.connection).toMatchObject({
        provider: 'elevenlabs',
        agentId: 'agent_tarot',
        signedUrl: expect.stringMatching(/^wss:\/\/voice\.test\//),
        dynamicVariables: { first_name: 'Ada', reading_result_id: readingId },
      });
      expect(first.body.connection.context.length).toBeGreaterThan(100);
      expect(JSON.stringify(first.body)).not.toContain(API_KEY);
      expect(first.body.session).toMatchObject({ reactivation: false, secondsLeft: 300 });
      expect(first.body.remainingCredits).toBe(before);
      expect(await balanceOf(member)).toBe(before);

      // One session at a time: the running one is named.
      const second = await start(member, readingId);
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({
        error: 'voice_session_active',
        sessionId: first.body.session.sessionId,
        phase: 'active',
      });

      advance(42);
      const ended = await end(member, readingId, first.body.session.sessionId, 'ended_early');
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({
        reason: 'ended_early',
        secondsUsed: 42,
        message: 'Voice session ended',
      });
      expect(ended.body.voice).toMatchObject({ used: true, active: null, nextSessionCost: 2 });
      // Ending twice answers the first end.
      const again = await end(member, readingId, first.body.session.sessionId, 'left');
      expect(again.body).toMatchObject({ reason: 'ended_early', secondsUsed: 42 });

      const reactivated = await start(member, readingId);
      expect(reactivated.status).toBe(201);
      expect(reactivated.body.message).toBe('Voice agent reactivated! 5 minutes remaining.');
      expect(reactivated.body.session.reactivation).toBe(true);
      expect(reactivated.body.remainingCredits).toBe(before - 2);
      expect(await balanceOf(member)).toBe(before - 2);
      expect(reactivated.body.voice).toMatchObject({ reactivations: 1, creditsCharged: 2 });

      // The ledger names it, with its reading.
      const spends = (await creditEvents(server, id)).filter(
        (e) => e.type === 'CreditsSpent' && e.data.purpose === 'voice_reactivation',
      );
      expect(spends).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({
            amount: 2,
            description: 'Voice guide reactivated',
            readingId,
          }),
        }),
      ]);
      const history = await member.get('/api/me/ledger');
      expect(JSON.stringify(history.body)).toContain('Voice guide reactivated');

      // The library marks the reading; the usage log has the spec's voice columns.
      await caughtUp(server);
      const library = await member.get('/api/library');
      expect(
        library.body.items.find((r: { readingId: string }) => r.readingId === readingId),
      ).toMatchObject({ voiceUsed: true });
      const row = await server.deps.read
        .selectFrom('usage_logs')
        .select(['voice_agent_used', 'voice_reactivation', 'voice_credits_charged'])
        .where('log_id', '=', readingId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        voice_agent_used: true,
        voice_reactivation: true,
        voice_credits_charged: 2,
      });
    });

    it('ends a session by the server clock, once, whether or not the browser said so', async () => {
      eleven.mode = 'ok';
      const { member } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      const started = await start(member, readingId);
      expect(started.status).toBe(201);

      advance(120);
      const running = await member.get(`/api/readings/${readingId}/voice`);
      expect(running.body.active).toMatchObject({ secondsLeft: 180 });

      // A browser whose timer ran fast: an early 'time up' is an early end... but not yet here.
      advance(181);
      const read = await member.get(`/api/readings/${readingId}/voice`);
      expect(read.body).toMatchObject({ active: null, used: true, secondsUsed: 300 });
      await member.get(`/api/readings/${readingId}/voice`);
      const ends = (await readingEvents(server, readingId)).filter(
        (e) => e.type === 'VoiceSessionEnded',
      );
      expect(ends).toEqual([
        {
          type: 'VoiceSessionEnded',
          data: expect.objectContaining({ reason: 'time_up', secondsUsed: 300 }),
        },
      ]);
      // The browser's own end, after the clock's: answered as recorded.
      const late = await end(member, readingId, started.body.session.sessionId, 'time_up');
      expect(late.body).toMatchObject({ reason: 'time_up', message: 'Voice session completed' });
    });

    it('believes time_up only near the end, and connect_failed only just after the start', async () => {
      eleven.mode = 'ok';
      const { member } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      const s1 = await start(member, readingId);
      advance(100);
      const early = await end(member, readingId, s1.body.session.sessionId, 'time_up');
      expect(early.body).toMatchObject({ reason: 'ended_early', secondsUsed: 100 });

      const s2 = await start(member, readingId); // a reactivation
      expect(s2.status).toBe(201);
      advance(60);
      const late = await end(member, readingId, s2.body.session.sessionId, 'connect_failed');
      expect(late.body).toMatchObject({ reason: 'ended_early', secondsUsed: 60 });
      expect(late.body.voice).toMatchObject({ reactivations: 1, creditsCharged: 2 });
    });

    it('gives a reactivation back when its session never connected, and keeps the included one unused', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      const balance = await balanceOf(member);

      const first = await start(member, readingId);
      advance(5);
      const failed = await end(member, readingId, first.body.session.sessionId, 'connect_failed');
      expect(failed.body).toMatchObject({ reason: 'connect_failed' });
      // It never connected: the included session is still unused.
      expect(failed.body.voice).toMatchObject({ used: false, nextSessionCost: 0 });

      const retry = await start(member, readingId);
      expect(retry.body.session.reactivation).toBe(false);
      advance(30);
      await end(member, readingId, retry.body.session.sessionId, 'ended_early');

      const paid = await start(member, readingId);
      expect(paid.body.remainingCredits).toBe(balance - 2);
      advance(3);
      const refunded = await end(member, readingId, paid.body.session.sessionId, 'connect_failed');
      expect(refunded.body.remainingCredits).toBe(balance);
      expect(refunded.body.voice).toMatchObject({
        reactivations: 0,
        creditsCharged: 0,
        used: true,
      });
      expect(await balanceOf(member)).toBe(balance);

      const types = (await readingEvents(server, readingId)).map((e) => e.type);
      // The end is recorded before the refund, and the refund is settled after it.
      expect(types.slice(-2)).toEqual(['VoiceSessionEnded', 'VoiceRefundSettled']);
      const refunds = (await creditEvents(server, id)).filter((e) => e.type === 'SpendRefunded');
      expect(refunds).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ amount: 2, reason: 'voice_failed' }),
        }),
      ]);
    });

    it('answers 502 and gives the reactivation back when the voice service fails or times out', async () => {
      const { member, id } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      eleven.mode = 'ok';
      const first = await start(member, readingId);
      await end(member, readingId, first.body.session.sessionId, 'ended_early');
      const balance = await balanceOf(member);

      for (const mode of ['fail', 'hang'] as const) {
        eleven.mode = mode;
        const answer = await start(member, readingId);
        expect(answer.status, mode).toBe(502);
        expect(answer.body).toMatchObject({ error: 'voice_unavailable' });
        expect(await balanceOf(member)).toBe(balance);
      }
      const types = (await readingEvents(server, readingId)).map((e) => e.type);
      expect(types.slice(-6)).toEqual([
        'VoiceSessionRequested',
        'VoiceSessionFailed',
        'VoiceRefundSettled',
        'VoiceSessionRequested',
        'VoiceSessionFailed',
        'VoiceRefundSettled',
      ]);
      const credit = (await creditEvents(server, id)).map((e) => e.type);
      expect(credit.filter((t) => t === 'SpendRefunded')).toHaveLength(2);
      eleven.mode = 'ok';
      const status = await member.get(`/api/readings/${readingId}/voice`);
      expect(status.body).toMatchObject({ active: null, starting: false, creditsCharged: 0 });
    });

    it('refuses a reactivation the balance does not cover (402) and a blocked account (403); others’ readings are 404', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 5);
      const readingId = await readingOf(member); // life path: 5 credits, leaves 0
      const first = await start(member, readingId);
      await end(member, readingId, first.body.session.sessionId, 'ended_early');
      const poor = await start(member, readingId);
      expect(poor.status).toBe(402);
      expect(poor.body).toMatchObject({
        error: 'insufficient_credits',
        required: 2,
        balance: 0,
        message: 'Insufficient credits. You need 2 credits to reactivate the voice agent.',
      });

      const stranger = (await memberWith(server, 10)).member;
      expect((await stranger.get(`/api/readings/${readingId}/voice`)).status).toBe(404);
      expect((await start(stranger, readingId)).status).toBe(404);
      expect((await end(stranger, readingId, first.body.session.sessionId, 'left')).status).toBe(
        404,
      );
      expect((await member.get(`/api/readings/${randomUUID()}/voice`)).status).toBe(404);

      const admin = server.client();
      await admin.signInAsAdmin();
      expect((await admin.post(`/api/admin/users/${id}/block`, {})).status).toBe(200);
      const blocked = await start(member, readingId);
      expect(blocked.status).toBe(403);
      expect(blocked.body.error).toBe('account_blocked');
    });

    it('honours the Idempotency-Key: the same start twice is one session and one charge', async () => {
      eleven.mode = 'ok';
      const { member } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      const first = await start(member, readingId);
      await end(member, readingId, first.body.session.sessionId, 'ended_early');
      const balance = await balanceOf(member);
      const key = randomUUID();
      const a = await start(member, readingId, key);
      const b = await start(member, readingId, key);
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body.session.sessionId).toBe(a.body.session.sessionId);
      expect(await balanceOf(member)).toBe(balance - 2);
    });

    it('20 concurrent reactivations over four used readings on a balance of 5 charge at most 2, one session a reading', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 25);
      const readings: string[] = [];
      for (let i = 0; i < 4; i++) readings.push(await readingOf(member, 'life-path', lifePath));
      for (const readingId of readings) {
        const s = await start(member, readingId);
        await end(member, readingId, s.body.session.sessionId, 'ended_early');
      }
      expect(await balanceOf(member)).toBe(5);

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => start(member, readings[i % 4]!)),
      );
      const started = answers.filter((a) => a.status === 201);
      for (const a of answers) expect([201, 402, 409]).toContain(a.status);
      expect(started.length).toBeLessThanOrEqual(2);
      expect(started.length).toBeGreaterThanOrEqual(1);
      expect(await balanceOf(member)).toBe(5 - 2 * started.length);
      const perReading = new Map<string, number>();
      for (const a of started) {
        const readingId = a.body.voice.readingId as string;
        perReading.set(readingId, (perReading.get(readingId) ?? 0) + 1);
      }
      expect([...perReading.values()].every((n) => n === 1)).toBe(true);
      const charged = (await creditEvents(server, id)).filter(
        (e) => e.type === 'CreditsSpent' && e.data.purpose === 'voice_reactivation',
      );
      const refunded = (await creditEvents(server, id)).filter((e) => e.type === 'SpendRefunded');
      expect(charged.length - refunded.length).toBe(started.length);

      await caughtUp(server);
      expect((await verifyLedger(server.deps.ledger.store, server.deps.db)).differences).toEqual(
        [],
      );
    });

    it('the sweep ends sessions past their time and fails (and refunds) a start a crash cut off', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 20);
      const running = await readingOf(member);
      const s = await start(member, running);
      expect(s.status).toBe(201);

      // A reactivation cut off after its charge: requested and spent, never started.
      const cutOff = await readingOf(member, 'tarot-traditional', tarot);
      const first = await start(member, cutOff);
      await end(member, cutOff, first.body.session.sessionId, 'ended_early');
      const { ledger } = server.deps;
      const sessionId = randomUUID();
      const spendId = randomUUID();
      await ledger.handle(
        'reading',
        cutOff,
        {
          type: 'RequestVoiceSession',
          userId: id,
          sessionId,
          spendId,
          reactivationCost: 2,
          now,
        },
        systemContext(),
      );
      await ledger.handle(
        'credits',
        id,
        {
          type: 'SpendCredits',
          spendId,
          amount: 2,
          purpose: 'voice_reactivation',
          description: 'Voice guide reactivated',
          appId: 3,
          readingId: cutOff,
        },
        systemContext(),
      );
      await caughtUp(server);
      const charged = await balanceOf(member);

      // Not yet: a start may take a while; a session may still run.
      const cutBefore = (await readingEvents(server, cutOff)).length;
      const runningBefore = (await readingEvents(server, running)).length;
      // (Events are stamped with the machine's time; the test's clock runs ahead of it.)
      await recoverVoiceSessions(ledger, server.deps.read, new Date(), server.deps.logger);
      expect((await readingEvents(server, cutOff)).length).toBe(cutBefore);
      expect((await readingEvents(server, running)).length).toBe(runningBefore);

      // (Sessions earlier tests left running are swept too.)
      const later = new Date(now.getTime() + 11 * 60_000);
      expect(
        await recoverVoiceSessions(ledger, server.deps.read, later, server.deps.logger),
      ).toBeGreaterThanOrEqual(2);
      const runningEvents = (await readingEvents(server, running)).map((e) => e.type);
      expect(runningEvents.at(-1)).toBe('VoiceSessionEnded');
      const cutEvents = (await readingEvents(server, cutOff)).map((e) => e.type);
      expect(cutEvents.slice(-3)).toEqual([
        'VoiceSessionRequested',
        'VoiceSessionFailed',
        'VoiceRefundSettled',
      ]);
      await caughtUp(server);
      expect(await balanceOf(member)).toBe(charged + 2);
      // Swept once: nothing more to do.
      expect(await recoverVoiceSessions(ledger, server.deps.read, later, server.deps.logger)).toBe(
        0,
      );
    });

    it('refuses bad bodies (400), a failed start asked again (409) and ending a start under way (409)', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 20);
      const readingId = await readingOf(member);
      expect((await start(member, readingId)).status).toBe(201);
      const status = await member.get(`/api/readings/${readingId}/voice`);
      const sessionId = status.body.active.sessionId as string;
      const bad = await member.post(`/api/readings/${readingId}/voice/sessions`, { minutes: 60 });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual([{ field: 'minutes', message: 'is not a known field' }]);
      const noReason = await member.post(
        `/api/readings/${readingId}/voice/sessions/${sessionId}/end`,
        {},
      );
      expect(noReason.status).toBe(400);
      expect(noReason.body.fields[0].field).toBe('reason');
      await end(member, readingId, sessionId, 'ended_early');

      // A reactivation the voice service refused, asked again with its key: it stays failed.
      eleven.mode = 'fail';
      const key = randomUUID();
      expect((await start(member, readingId, key)).status).toBe(502);
      eleven.mode = 'ok';
      // A server failure frees the key for a retry; the stream says this session failed.
      const again = await start(member, readingId, key);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('voice_session_failed');
      const { ledger } = server.deps;
      const reading = (await ledger.load('reading', readingId)).state;
      expect(
        Object.values(reading.voice.outcomes).filter((o) => o.status === 'failed'),
      ).toHaveLength(1);

      // A start under way (requested, not yet started): its end waits for the start.
      const underWay = randomUUID();
      await ledger.handle(
        'reading',
        readingId,
        {
          type: 'RequestVoiceSession',
          userId: id,
          sessionId: underWay,
          spendId: randomUUID(),
          reactivationCost: 2,
          now,
        },
        systemContext(),
      );
      const starting = await end(member, readingId, underWay, 'left');
      expect(starting.status).toBe(409);
      expect(starting.body.error).toBe('voice_session_starting');
    });

    it('a start the sweep gives up on while it waits for the voice service is refunded once', async () => {
      eleven.mode = 'ok';
      const { member, id } = await memberWith(server, 20);
      const readingId = await readingOf(member);
      const first = await start(member, readingId);
      await end(member, readingId, first.body.session.sessionId, 'ended_early');
      await caughtUp(server);
      const balance = await balanceOf(member);

      eleven.mode = 'hang';
      const slow = start(member, readingId);
      const { ledger } = server.deps;
      // Wait for the spend: the start is then waiting for the voice service.
      const spent = async () =>
        (await creditEvents(server, id)).some(
          (e) => e.type === 'CreditsSpent' && e.data.purpose === 'voice_reactivation',
        );
      while (!(await spent())) await new Promise((r) => setTimeout(r, 10));
      await caughtUp(server);
      await recoverVoiceSessions(ledger, server.deps.read, new Date(), server.deps.logger, 0);
      const answer = await slow;
      eleven.mode = 'ok';
      expect(answer.status).toBe(502);
      await caughtUp(server);
      expect(await balanceOf(member)).toBe(balance);
      const refunds = (await creditEvents(server, id)).filter((e) => e.type === 'SpendRefunded');
      expect(refunds).toHaveLength(1);
    });

    it('ledger:verify counts standing reactivations and finds a voice charge no session accounts for', async () => {
      await caughtUp(server);
      const clean = await verifyLedger(server.deps.ledger.store, server.deps.db);
      expect(clean.differences).toEqual([]);
      expect(clean.voiceReactivations.count).toBeGreaterThan(0);
      expect(clean.voiceReactivations.credits).toBe(2 * clean.voiceReactivations.count);

      // A charge written behind the reading's back (no session requested it).
      const { member, id } = await memberWith(server, 10);
      const readingId = await readingOf(member);
      await server.deps.ledger.handle(
        'credits',
        id,
        {
          type: 'SpendCredits',
          spendId: randomUUID(),
          amount: 2,
          purpose: 'voice_reactivation',
          description: 'Voice guide reactivated',
          appId: 5,
          readingId,
        },
        systemContext(),
      );
      await caughtUp(server);
      const report = await verifyLedger(server.deps.ledger.store, server.deps.db);
      expect(report.differences).toEqual([
        `voice ${readingId}: the reading's sessions charged 0 credits, its voice_reactivation spends stand at 2`,
      ]);
    });

    it('lets the browser reach ElevenLabs (sockets, SDK worklets) only when it is configured', async () => {
      const csp = (await server.client().get('/api/apps')).headers.get('content-security-policy');
      expect(csp).toMatch(
        /connect-src 'self' wss:\/\/\*\.elevenlabs\.io https:\/\/\*\.elevenlabs\.io/,
      );
      expect(csp).toMatch(/script-src [^;]*blob:/);
    });

    it('shows the voice price list in /api/apps and /api/pricing', async () => {
      const apps = await server.client().get('/api/apps');
      expect(apps.body.voice).toEqual({ sessionSeconds: 300, reactivationCost: 2 });
      const pricing = await server.client().get('/api/pricing');
      expect(pricing.body.voice).toEqual({ sessionSeconds: 300, reactivationCost: 2 });
    });
  });
}
