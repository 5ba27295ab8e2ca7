/** The offline voice guide (no ElevenLabs key): the same sessions, timer and credits at the configured price. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberWith, startTestServer, type TestServer } from './support.ts';
import { balanceOf, end, readingOf, start } from './voiceFixtures.ts';

describe('the offline voice guide (PGlite, no key)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { VOICE_SESSION_SECONDS: '120', VOICE_REACTIVATION_CREDITS: '3' },
      'pglite',
    );
  });
  afterAll(() => server?.close());

  it('runs the same sessions, timer and credits with the offline guide and the configured price', async () => {
    const { member } = await memberWith(server, 10);
    const readingId = await readingOf(member);
    const first = await start(member, readingId);
    expect(first.status).toBe(201);
    expect(first.body.connection).toMatchObject({
      provider: 'offline',
      dynamicVariables: { first_name: 'Ada', reading_result_id: readingId },
    });
    expect(first.body.connection.context).toContain('Life Path');
    expect(first.body.message).toBe('Voice agent activated! 2 minutes remaining.');
    expect(first.body.session.secondsLeft).toBeLessThanOrEqual(120);
    await end(member, readingId, first.body.session.sessionId, 'ended_early');
    const status = await member.get(`/api/readings/${readingId}/voice`);
    expect(status.body).toMatchObject({ nextSessionCost: 3, reactivationCost: 3 });
    const balance = await balanceOf(member);
    const again = await start(member, readingId);
    expect(again.body.remainingCredits).toBe(balance - 3);
    const csp = (await server.client().get('/api/apps')).headers.get('content-security-policy');
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toContain('blob:');
    expect((await server.client().get('/api/apps')).body.voice).toEqual({
      sessionSeconds: 120,
      reactivationCost: 3,
    });
  });
});
