import { createHash } from 'node:crypto';
import { AVATAR_MAX_BYTES } from '@astra/contracts';
import { readModels, verifyLedger } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { appTables } from '../src/storage/appDatabase.ts';
import { eventCount, startTestServer, type TestServer } from './support.ts';

/** A real 1×1 PNG. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** The smallest GIF (1×1, transparent). */
const tinyGif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const fromEvil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

describe('accounts, profile, pictures, feedback and apps over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const avatarCount = async () =>
    (await appTables(server.deps.db).selectFrom('avatars').select('id').execute()).length;

  it('has no Google sign-in unless configured: 404 with the JSON error shape', async () => {
    const client = server.client();
    expect(await client.get('/api/auth/google')).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'Google sign-in is not configured' },
    });
    expect((await client.get('/api/auth/apple')).status).toBe(404);
    expect((await client.get('/api/auth/providers')).body).toEqual({
      google: false,
      apple: false,
      dev: true,
    });
  });

  it('limits provider sign-in attempts; a browser over the limit lands on the callback page', async () => {
    const client = server.client();
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push(await client.get('/api/auth/apple?returnUrl=/app'));
    // 30 a minute (one was spent by the test above): first the JSON 404, then the redirect.
    expect(answers.slice(0, 29).every((answer) => answer.status === 404)).toBe(true);
    const limited = answers[30]!;
    expect(limited.status).toBe(302);
    const location = new URL(limited.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/auth/callback');
    expect(location.searchParams.get('error')).toBe('rate_limited');
  });

  it('edits the profile and answers the Me view; "" or null clears a field', async () => {
    const client = server.client();
    await client.signIn('onboarding@example.com', 'Olive Onboard');
    const edited = await client.patch('/api/me', {
      firstName: ' Olivia ',
      birthDate: '1990-05-01',
      birthTime: '07:30',
      birthCity: 'London',
      birthCountry: 'United Kingdom',
      language: 'en',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      email: 'onboarding@example.com',
      firstName: 'Olivia',
      lastName: 'Onboard',
      fullName: 'Olivia Onboard',
      birthDate: '1990-05-01',
      birthTime: '07:30',
      birthCity: 'London',
      birthCountry: 'United Kingdom',
      language: 'en',
    });
    expect((await client.get('/api/me')).body).toEqual(edited.body);

    const cleared = await client.patch('/api/me', { birthTime: '', birthCity: null });
    expect(cleared.body).toMatchObject({
      birthTime: null,
      birthCity: null,
      birthDate: '1990-05-01',
    });
    // Nothing changed: nothing is written.
    const before = await eventCount(server);
    expect((await client.patch('/api/me', { birthDate: '1990-05-01' })).status).toBe(200);
    expect(await eventCount(server)).toBe(before);
  });

  it('refuses invalid profile changes with the failing fields, and writes nothing', async () => {
    const client = server.client();
    await client.signIn('validation@example.com');
    const before = await eventCount(server);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const bad: [unknown, string[]][] = [
      [{ birthDate: '1990-13-01' }, ['birthDate']],
      [{ birthDate: '01.05.1990' }, ['birthDate']],
      [{ birthDate: tomorrow }, ['birthDate']],
      [{ birthDate: '1799-12-31' }, ['birthDate']],
      [{ birthTime: '25:00' }, ['birthTime']],
      [{ birthTime: '7:30' }, ['birthTime']],
      [{ language: 'english' }, ['language']],
      [{ firstName: 'x'.repeat(101) }, ['firstName']],
      [{ email: 'new@example.com' }, ['email']],
      [{ birthCity: 'Paris', role: 'admin' }, ['role']],
      [{ birthTime: 730, birthDate: '1990-02-30' }, ['birthDate', 'birthTime']],
    ];
    for (const [body, fields] of bad) {
      const answer = await client.patch('/api/me', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(answer.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(fields);
    }
    const email = await client.patch('/api/me', { email: 'new@example.com' });
    expect(email.body.fields).toEqual([
      { field: 'email', message: 'Email cannot be changed. Contact support if needed.' },
    ]);
    expect(await eventCount(server)).toBe(before);
    expect((await client.get('/api/me')).body.email).toBe('validation@example.com');
    expect((await server.client().patch('/api/me', { birthCity: 'Oslo' })).status).toBe(401);
  });

  it('accepts a real picture by its bytes, serves it back, and refuses what is not one', async () => {
    const client = server.client();
    await client.signIn('picture@example.com');
    const events = await eventCount(server);
    const pictures = await avatarCount();

    const text = Buffer.from('this is not a picture, whatever the header says');
    const refused = await client.put('/api/me/avatar', text, { 'content-type': 'image/png' });
    expect(refused).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>');
    expect(
      (await client.put('/api/me/avatar', svg, { 'content-type': 'image/svg+xml' })).status,
    ).toBe(415);
    expect((await client.put('/api/me/avatar', new Uint8Array(0))).status).toBe(415);
    const huge = Buffer.concat([tinyPng, Buffer.alloc(AVATAR_MAX_BYTES)]);
    const tooLarge = await client.put('/api/me/avatar', huge, { 'content-type': 'image/png' });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
    expect(await eventCount(server)).toBe(events);
    expect(await avatarCount()).toBe(pictures);

    // The header may lie the other way too: the bytes decide.
    const accepted = await client.put('/api/me/avatar', tinyPng, {
      'content-type': 'application/octet-stream',
    });
    expect(accepted.status).toBe(200);
    const id = createHash('sha256').update(tinyPng).digest('hex');
    expect(accepted.body.avatarUrl).toBe(`/api/avatars/${id}`);
    expect((await client.get('/api/me')).body.avatarUrl).toBe(`/api/avatars/${id}`);

    const served = await fetch(`${server.url}/api/avatars/${id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(tinyPng)).toBe(true);

    expect(await server.client().get(`/api/avatars/${'0'.repeat(64)}`)).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect((await server.client().get('/api/avatars/..%2F..%2Fetc')).status).toBe(404);

    // A picture sent as JSON is still judged by its bytes (docs/api.md), and not kept as an
    // Idempotency-Key's JSON answer: another picture under the same key is stored, not replayed.
    const key = { 'idempotency-key': `avatar-${id.slice(0, 8)}` };
    const asJson = await client.put('/api/me/avatar', tinyGif, {
      'content-type': 'application/json',
      ...key,
    });
    expect(asJson.status, JSON.stringify(asJson.body)).toBe(200);
    const gifId = createHash('sha256').update(tinyGif).digest('hex');
    expect(asJson.body.avatarUrl).toBe(`/api/avatars/${gifId}`);
    const again = await client.put('/api/me/avatar', tinyPng, {
      'content-type': 'application/json',
      ...key,
    });
    expect(again.body.avatarUrl).toBe(`/api/avatars/${id}`);
    expect(
      (await client.put('/api/me/avatar', text, { 'content-type': 'application/json' })).body,
    ).toMatchObject({ error: 'unsupported_media_type' });

    // Removing it clears the profile and, as nobody else uses it, deletes the bytes.
    const removed = await client.delete('/api/me/avatar');
    expect(removed).toMatchObject({ status: 200, body: { avatarUrl: null } });
    expect((await fetch(`${server.url}/api/avatars/${id}`)).status).toBe(404);
  });

  it('keeps a picture two users share until the last one lets go of it', async () => {
    const first = server.client();
    const second = server.client();
    await first.signIn('share-one@example.com');
    await second.signIn('share-two@example.com');
    const id = createHash('sha256').update(tinyPng).digest('hex');
    await first.put('/api/me/avatar', tinyPng);
    await second.put('/api/me/avatar', tinyPng);
    await first.delete('/api/me');
    expect((await fetch(`${server.url}/api/avatars/${id}`)).status).toBe(200);
    await second.delete('/api/me/avatar');
    expect((await fetch(`${server.url}/api/avatars/${id}`)).status).toBe(404);
  });

  it('deletes an account: balance forfeited, ledger closed, profile deleted, every session ended', async () => {
    const phone = server.client();
    const laptop = server.client();
    const me = await phone.signIn('leaving@example.com', 'Lee Leaving');
    await laptop.signIn('leaving@example.com');
    const { avatarUrl } = (await phone.put('/api/me/avatar', tinyPng)).body;
    const oldCookie = phone.cookie;

    const deleted = await phone.delete('/api/me');
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, message: 'Account Deleted' } });
    expect(deleted.headers.getSetCookie().join()).toMatch(/astra\.sid=;/);
    expect((await laptop.get('/api/me')).status).toBe(401);
    const stale = server.client();
    stale.cookie = oldCookie;
    expect(await stale.get('/api/me')).toMatchObject({
      status: 401,
      body: { error: 'unauthenticated' },
    });
    expect((await stale.delete('/api/me')).status).toBe(401);

    const admin = server.client();
    await admin.signInAsAdmin();
    const ledger = (await admin.get(`/api/admin/users/${me.id}/ledger`)).body;
    expect(ledger.items.slice(0, 2)).toMatchObject([
      { type: 'CreditAccountClosed', amount: 0, balanceAfter: 0, actor: { id: me.id } },
      { type: 'CreditsForfeited', amount: -10, balanceAfter: 0, reason: expect.any(String) },
    ]);
    const profile = await readModels(server.deps.db)
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    // Erased too: the row keeps no picture (services/api/test/erasure.test.ts).
    expect(profile).toMatchObject({ status: 'deleted', remaining_credits: 0, avatar_url: null });
    expect(profile.cancellation_date).not.toBeNull();
    // The picture nobody else uses is gone with the account.
    expect(avatarUrl).toMatch(/^\/api\/avatars\//);
    expect((await fetch(`${server.url}${avatarUrl}`)).status).toBe(404);
    const sessions = await appTables(server.deps.db)
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', me.id)
      .execute();
    expect(sessions).toEqual([]);

    // The address is free again; the free credits are not.
    const again = await server.client().signIn('leaving@example.com');
    expect(again.id).not.toBe(me.id);
    expect(again.remainingCredits).toBe(0);
    expect((await verifyLedger(server.deps.ledger.store, server.deps.db)).differences).toEqual([]);
  });

  it('finishes a deletion that stopped half way: by retrying, or by the next sign-in', async () => {
    const { ledger } = server.deps;
    // Stopped after closing the credit account: the user is still live and simply retries.
    const retrying = server.client();
    const first = await retrying.signIn('retry@example.com');
    await ledger.handle('credits', first.id, { type: 'CloseAccount' }, systemContext());
    expect((await retrying.delete('/api/me')).status).toBe(200);
    expect((await ledger.load('credits', first.id)).state.status).toBe('closed');
    const admin = server.client();
    await admin.signInAsAdmin();
    const history = (await admin.get(`/api/admin/users/${first.id}/ledger`)).body.items;
    expect(history.filter((i: { type: string }) => i.type === 'CreditsForfeited')).toHaveLength(1);

    // Stopped after marking the user deleted, before releasing the address: the user is signed
    // out (401), and the next sign-in with the address finishes the release.
    const halfway = server.client();
    const second = await halfway.signIn('halfway@example.com');
    await ledger.handle('credits', second.id, { type: 'CloseAccount' }, systemContext());
    await ledger.handle(
      'user',
      second.id,
      { type: 'DeleteUser', reason: 'user_requested' },
      systemContext(),
    );
    const reborn = await server.client().signIn('halfway@example.com');
    expect(reborn.id).not.toBe(second.id);
    // The new sign-in waited for a later position, so the deletion is readable too.
    expect((await halfway.get('/api/me')).status).toBe(401);
    expect(reborn.remainingCredits).toBe(0);
    expect((await ledger.load('email', 'halfway@example.com')).state.holder).toBe(reborn.id);
  });

  it('signs out everywhere: logging out on one device ends the sessions of every device', async () => {
    const phone = server.client();
    const laptop = server.client();
    await phone.signIn('everywhere@example.com');
    await laptop.signIn('everywhere@example.com');
    expect((await laptop.get('/api/me')).status).toBe(200);
    expect(await phone.post('/api/auth/logout')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await phone.get('/api/me')).status).toBe(401);
    expect((await laptop.get('/api/me')).status).toBe(401);
  });

  it('takes feedback from signed-in users only, into the feedback read model', async () => {
    const anonymous = await server.client().post('/api/feedback', { message: 'Hello' });
    expect(anonymous).toMatchObject({
      status: 401,
      body: { error: 'unauthenticated', message: 'Please sign in to submit feedback' },
    });
    const client = server.client();
    const me = await client.signIn('feedback@example.com');
    const before = await eventCount(server);
    for (const [body, fields] of [
      [{ message: '   ' }, ['message']],
      [{ message: 'x'.repeat(2001) }, ['message']],
      [{}, ['message']],
      [{ message: 'Hi', rating: 5 }, ['rating']],
    ] as const) {
      const answer = await client.post('/api/feedback', body);
      expect(answer.status).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    }
    expect(await eventCount(server)).toBe(before);

    const sent = await client.post('/api/feedback', {
      message: '  The tarot reading was spot on.  ',
    });
    expect(sent).toMatchObject({
      status: 201,
      body: { ok: true, message: 'Thank you for your feedback!' },
    });
    const rows = await readModels(server.deps.db)
      .selectFrom('feedback')
      .selectAll()
      .where('user_id', '=', me.id)
      .execute();
    expect(rows).toMatchObject([
      { feedback_id: sent.body.feedbackId, message: 'The tarot reading was spot on.' },
    ]);
    expect(Date.now() - new Date(rows[0]!.created_at).getTime()).toBeLessThan(60_000);
  });

  it('lists the five apps with their credit cost to anyone, ordered by app id', async () => {
    const answer = await server.client().get('/api/apps');
    expect(answer.status).toBe(200);
    expect(
      answer.body.items.map((a: { appId: number; name: string; creditCost: number }) => [
        a.appId,
        a.name,
        a.creditCost,
      ]),
    ).toEqual([
      [1, 'Natal Birth Chart', 24],
      [2, 'Tarot Celtic Cross', 12],
      [3, 'Tarot Traditional', 4],
      [4, 'Compatibility Reading', 8],
      [5, 'Life Path Number', 5],
    ]);
    expect(answer.body.items[0]).toMatchObject({ slug: 'natal-chart', voiceMinutes: 5 });
  });

  it('refuses state-changing requests from another site, and changes nothing', async () => {
    const client = server.client();
    await client.signIn('targeted@example.com');
    const before = await eventCount(server);
    for (const answer of [
      await client.patch('/api/me', { birthCity: 'Nowhere' }, fromEvil),
      await client.delete('/api/me', fromEvil),
      await client.post('/api/feedback', { message: 'forged' }, fromEvil),
      await client.put('/api/me/avatar', tinyPng, { origin: 'https://evil.example' }),
      await client.delete('/api/me/avatar', { 'sec-fetch-site': 'cross-site' }),
    ]) {
      expect(answer).toMatchObject({ status: 403, body: { error: 'cross_site_request' } });
    }
    expect(await eventCount(server)).toBe(before);
    expect((await client.get('/api/me')).body.status).toBe('active');
  });
});
