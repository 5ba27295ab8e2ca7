import { createHash, createHmac, randomUUID } from 'node:crypto';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { errorsOf } from '../src/http/routeDescriptors.ts';
import { apiRoutes } from '../src/http/routeTable.ts';
import { systemContext } from '../src/ledger/ledger.ts';
import { buildOpenApiDocument } from '../src/modules/system/openApiDocument.ts';
import { fakeOpenAi } from './openAiDouble.ts';
import { caughtUp, recordedAnswers, startTestServer, type TestServer } from './support.ts';

/**
 * The OpenAPI document against the server: every mounted route is documented and every
 * documented route is mounted; the main flows' answers parse with their schemas (a checked
 * client); and the error codes the document lists are produced here, route by route.
 */

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
};

/** `METHOD /path` of every route in an Express router stack, nested routers included. */
function mountedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const path = `${prefix}${layer.route.path === '/' ? '' : layer.route.path}` || '/';
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
    if (layer.handle?.stack) {
      const mount = !layer.rawPath || layer.rawPath === '/' ? '' : layer.rawPath;
      return mountedRoutes(layer.handle.stack, `${prefix}${mount}`);
    }
    return [];
  });
}

/** This file's answers only: test files may share a process (and `support.ts`'s record). */
const firstAnswer = recordedAnswers.length;
const answersHere = () => recordedAnswers.slice(firstAnswer);
const documentedRoutes = () => apiRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`);

const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
const birth = { ...lifePath, birthTime: '12:00', city: 'Zürich', country: 'CH' };
/** A valid body of each reading. */
const validInputs = [
  ['life-path', lifePath],
  ['tarot-traditional', { firstName: 'Ada', question: 'Will it work?' }],
  ['tarot-celtic-cross', { firstName: 'Ada', question: 'Will it work?' }],
  ['natal-chart', birth],
  ['compatibility', { person1: birth, person2: { ...birth, birthTime: '13:00' } }],
] as const;
/** The smallest PNG: its signature and an IHDR chunk are all the sniffer reads. */
const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);

describe('the OpenAPI document', () => {
  let server: TestServer;
  let openAi: Awaited<ReturnType<typeof fakeOpenAi>>;
  let writer: 'write' | 'fail' = 'write';
  beforeAll(async () => {
    openAi = await fakeOpenAi(() => writer);
    server = await startTestServer({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openAi.url,
      OPENAI_MAX_RETRIES: '0',
    });
  });
  afterAll(async () => {
    await server?.close();
    openAi?.close();
  });

  const checked = () => server.client().checked();
  const signedIn = async (prefix: string) => {
    const client = checked();
    const me = await client.signIn(`${prefix}-${randomUUID()}@example.com`);
    return { client, me };
  };

  it('is OpenAPI 3.1, served at /api/openapi.json, and every $ref resolves', async () => {
    const answer = await checked().get('/api/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      JSON.parse(
        JSON.stringify(
          buildOpenApiDocument(apiRoutes, { serverUrl: server.deps.config.PUBLIC_URL }),
        ),
      ),
    );
    expect(answer.body.openapi).toBe('3.1.0');
    const refs = [...JSON.stringify(answer.body).matchAll(/"\$ref":"#\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    const unresolved = refs.filter(
      (ref) => ref.split('/').reduce<any>((node, key) => node?.[key], answer.body) === undefined,
    );
    expect(unresolved).toEqual([]);
    const page = await checked().get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('GET /api/me/ledger');
  });

  it('documents every route the server mounts, and mounts every documented route', () => {
    const app = createApp(server.deps) as unknown as { router: { stack: Layer[] } };
    const mounted = new Set(mountedRoutes(app.router.stack));
    // Not the JSON API: Prometheus (`/metrics`, see docs/operations.md) and the web app's pages.
    const api = [...mounted].filter((route) => route.split(' ')[1]!.startsWith('/api/'));
    expect(api.filter((route) => !documentedRoutes().includes(route))).toEqual([]);
    expect(documentedRoutes().filter((route) => !mounted.has(route))).toEqual([]);
  });

  it('answers the main flows as the schemas say', async () => {
    const anonymous = checked();
    expect((await anonymous.get('/api/health')).body).toEqual({ status: 'ok' });
    expect((await anonymous.get('/api/auth/providers')).status).toBe(200);
    expect((await anonymous.get('/api/apps')).body.items).toHaveLength(5);
    expect((await anonymous.get('/api/places?q=Zur')).status).toBe(200);
    expect((await anonymous.get('/api/places/at?latitude=47.6&longitude=9.3')).status).toBe(200);
    const pricing = await anonymous.get('/api/pricing');
    expect(pricing.body.tiers).toHaveLength(4);

    const { client, me } = await signedIn('flows');
    expect((await client.get('/api/me')).body.id).toBe(me.id);
    expect((await client.patch('/api/me', { birthCity: 'Zürich' })).body.birthCity).toBe('Zürich');
    expect((await client.get('/api/me/ledger')).body.total).toBe(2);

    // A reading, then the library, the reading, and its deletion.
    const reading = await client.post('/api/readings/life-path', lifePath);
    expect(reading.status).toBe(201);
    const { readingId } = reading.body;
    expect((await client.get(`/api/readings/${readingId}`)).status).toBe(200);
    expect((await client.get('/api/library?search=life')).body.total).toBe(1);
    expect((await client.delete(`/api/readings/${readingId}`)).status).toBe(200);
    // The same reading streamed: the facts at once, the text on the reading's event stream.
    const started = await client.post('/api/readings/life-path/start', lifePath);
    expect(started.status).toBe(202);
    const stream = await client.events(started.body.stream);
    const names: string[] = [];
    for await (const event of stream.events) names.push(event.event);
    expect([names[0], names.at(-1)]).toEqual(['reading', 'done']);
    expect((await client.post('/api/feedback', { message: 'Lovely' })).status).toBe(201);

    // A pack on the local checkout, then a subscription.
    const pack = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
    expect(pack.status).toBe(200);
    expect((await client.get(`/api/checkout/local/${pack.body.sessionId}`)).status).toBe(200);
    expect((await client.post(`/api/checkout/local/${pack.body.sessionId}/pay`)).status).toBe(200);
    const landed = await client.get(`/api/checkout/sessions/${pack.body.sessionId}`);
    expect(landed.body).toMatchObject({ status: 'complete', creditsAdded: 40 });
    const plan = await client.post('/api/checkout', { tierId: 2, isSubscription: true });
    expect((await client.post(`/api/checkout/local/${plan.body.sessionId}/pay`)).status).toBe(200);
    expect((await client.get('/api/subscription')).body).toMatchObject({ isSubscriber: true });
    expect((await client.post('/api/subscription/change', { tierId: 3 })).status).toBe(200);
    expect((await client.post('/api/subscription/cancel', {})).status).toBe(200);
    const abandoned = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
    expect(
      (await client.post(`/api/checkout/local/${abandoned.body.sessionId}/cancel`)).status,
    ).toBe(200);

    // A picture.
    const withPicture = await client.put('/api/me/avatar', png);
    expect(withPicture.status).toBe(200);
    const picture = await client.get(withPicture.body.avatarUrl);
    expect(picture.status).toBe(200);
    expect((await client.delete('/api/me/avatar')).body.avatarUrl).toBeNull();

    // Admin.
    const admin = checked();
    await admin.signInAsAdmin();
    const adjusted = await admin.post(`/api/admin/users/${me.id}/credits`, {
      amount: 5,
      reason: 'A gift',
    });
    expect(adjusted.body.message).toBe('Added 5 credits successfully');
    expect((await admin.get(`/api/admin/users/${me.id}/ledger`)).body.user.id).toBe(me.id);

    // The webhook answers a delivery (a redelivery of nothing we know is still `received`).
    const delivery = await deliver(
      server,
      JSON.stringify({ id: `evt_${randomUUID()}`, type: 'ping.test', data: { object: {} } }),
    );
    expect(delivery.status).toBe(200);

    expect((await client.delete('/api/me')).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
  });

  /** A delivery signed with the webhook secret, as Stripe signs them. */
  async function deliver(target: TestServer, payload: string, signature?: string) {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', target.deps.payments.webhookSecret)
      .update(`${t}.${payload}`)
      .digest('hex');
    return checked().request('POST', '/api/webhooks/stripe', payload, {
      'content-type': 'application/json',
      'stripe-signature': signature ?? `t=${t},v1=${v1}`,
    });
  }

  it('produces the documented error codes', async () => {
    const anonymous = checked();
    const { client: user, me } = await signedIn('errors');
    const admin = checked();
    const adminId = (await admin.signInAsAdmin()).id;
    const locked = checked();
    await locked.signIn('admin@example.com');

    // Common ones.
    expect((await anonymous.get('/api/me')).body.error).toBe('unauthenticated');
    expect((await user.post('/api/feedback', {})).status).toBe(400);
    expect(
      (
        await user.request('POST', '/api/feedback', '{not json', {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(400);
    expect((await user.post('/api/feedback', { message: 'x'.repeat(120_000) })).status).toBe(413);
    expect(
      (await user.post('/api/feedback', { message: 'hi' }, { 'sec-fetch-site': 'cross-site' })).body
        .error,
    ).toBe('cross_site_request');
    expect(
      (await user.post('/api/feedback', { message: 'hi' }, { 'idempotency-key': 'bad key!' }))
        .status,
    ).toBe(400);
    const key = randomUUID();
    await user.post('/api/feedback', { message: 'once' }, { 'idempotency-key': key });
    expect(
      (await user.post('/api/feedback', { message: 'twice' }, { 'idempotency-key': key })).body
        .error,
    ).toBe('idempotency_key_reused');
    // A first request still holding its key (its lease runs) makes a repeat wait.
    const pendingKey = randomUUID();
    const body = { message: 'pending' };
    await (server.deps.appDb as any)
      .insertInto('idempotency_keys')
      .values({
        key: `${me.id}:${pendingKey}`,
        request_hash: createHash('sha256')
          .update(`POST /api/feedback\n${JSON.stringify(body)}`)
          .digest('hex'),
        created_at: new Date(),
        lease_until: new Date(Date.now() + 60_000),
        claim_token: randomUUID(),
      })
      .execute();
    expect(
      (await user.post('/api/feedback', body, { 'idempotency-key': pendingKey })).body.error,
    ).toBe('request_in_progress');
    expect(
      (await user.post(`/api/admin/users/${me.id}/credits`, { amount: 1, reason: 'x' })).body.error,
    ).toBe('admin_required');
    expect(
      (await locked.post(`/api/admin/users/${me.id}/credits`, { amount: 1, reason: 'x' })).body
        .error,
    ).toBe('admin_locked');

    // Sign-in and system.
    expect((await anonymous.get('/api/auth/google')).status).toBe(404);
    expect((await anonymous.get('/api/auth/google/callback?code=x')).status).toBe(404);
    expect((await anonymous.get('/api/auth/apple')).status).toBe(404);
    expect(
      (
        await anonymous.request('POST', '/api/auth/apple/callback', 'code=x', {
          'content-type': 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(404);
    expect((await anonymous.get('/api/avatars/nothing')).status).toBe(404);

    // Account.
    expect((await user.put('/api/me/avatar', new Uint8Array(3 * 1024 * 1024))).body.error).toBe(
      'payload_too_large',
    );
    expect((await user.put('/api/me/avatar', new Uint8Array([1, 2, 3]))).body.error).toBe(
      'unsupported_media_type',
    );
    expect((await user.get('/api/me/ledger?page=0')).status).toBe(400);

    // Readings.
    expect((await user.get('/api/library?appId=9')).status).toBe(400);
    expect((await anonymous.get('/api/places')).status).toBe(400);
    expect((await anonymous.get('/api/places/at?latitude=91&longitude=9')).status).toBe(400);
    for (const kind of [
      'natal-chart',
      'tarot-celtic-cross',
      'tarot-traditional',
      'compatibility',
      'life-path',
    ]) {
      expect((await user.post(`/api/readings/${kind}`, {})).status).toBe(400);
      expect((await user.post(`/api/readings/${kind}/start`, {})).status).toBe(400);
    }
    expect((await user.get(`/api/readings/${randomUUID()}`)).status).toBe(404);
    expect((await user.events(`/api/readings/${randomUUID()}/stream`)).status).toBe(404);
    expect((await user.events(`/api/readings/${randomUUID()}/stream?from=x`)).status).toBe(400);
    expect((await user.delete(`/api/readings/${randomUUID()}`)).status).toBe(404);
    await admin.post(`/api/admin/users/${me.id}/credits`, { amount: 100, reason: 'Readings' });
    writer = 'fail';
    try {
      for (const [kind, input] of validInputs)
        expect((await user.post(`/api/readings/${kind}`, input)).body.error).toBe(
          'generation_failed',
        );
    } finally {
      writer = 'write';
    }
    const poor = await signedIn('poor');
    await admin.post(`/api/admin/users/${poor.me.id}/credits`, { amount: -10, reason: 'Spent' });
    for (const [kind, input] of validInputs) {
      for (const path of [`/api/readings/${kind}`, `/api/readings/${kind}/start`])
        expect((await poor.client.post(path, input)).body.error).toBe('insufficient_credits');
    }
    const blocked = await signedIn('blocked');
    await server.deps.ledger.handle('user', blocked.me.id, { type: 'BlockUser' }, systemContext());
    await caughtUp(server);
    for (const kind of [
      'natal-chart',
      'tarot-celtic-cross',
      'tarot-traditional',
      'compatibility',
      'life-path',
    ]) {
      for (const path of [`/api/readings/${kind}`, `/api/readings/${kind}/start`])
        expect((await blocked.client.post(path, {})).body.error).toBe('account_blocked');
    }
    expect(
      (await blocked.client.post('/api/checkout', { tierId: 1, isSubscription: false })).body.error,
    ).toBe('account_blocked');

    // Payments.
    expect((await user.post('/api/checkout', { tierId: 99, isSubscription: false })).status).toBe(
      400,
    );
    expect((await user.get('/api/checkout/sessions/cs_nothing')).status).toBe(404);
    expect((await user.get('/api/checkout/local/cs_local_nothing')).status).toBe(404);
    expect((await user.post('/api/checkout/local/cs_local_nothing/pay')).status).toBe(404);
    expect((await user.post('/api/subscription/refresh')).body.error).toBe(
      'no_active_subscription',
    );
    expect((await user.post('/api/subscription/cancel', {})).body.error).toBe(
      'no_active_subscription',
    );
    expect((await user.post('/api/subscription/change', { tierId: 2 })).body.error).toBe(
      'no_active_subscription',
    );
    const first = await user.post('/api/checkout', { tierId: 1, isSubscription: true });
    expect((await user.post('/api/checkout', { tierId: 1, isSubscription: true })).body.error).toBe(
      'checkout_in_progress',
    );
    await user.post(`/api/checkout/local/${first.body.sessionId}/pay`);
    expect((await user.post('/api/checkout', { tierId: 2, isSubscription: true })).body.error).toBe(
      'subscription_active',
    );
    expect((await user.post('/api/subscription/refresh')).body.error).toBe('refresh_not_due');
    expect((await user.post('/api/subscription/change', { tierId: 1 })).body.error).toBe(
      'same_plan',
    );
    expect((await user.post('/api/subscription/change', { tierId: 99 })).status).toBe(400);
    expect((await deliver(server, '{}', 'nothing')).body.error).toBe('invalid_signature');
    expect((await deliver(server, 'not json')).body.error).toBe('invalid_payload');
    expect((await deliver(server, 'x'.repeat(1_100_000))).status).toBe(413);

    // Admin.
    expect((await user.post('/api/admin/unlock', { password: 'x' })).body.error).toBe(
      'admin_required',
    );
    expect((await locked.post('/api/admin/unlock', { password: 'wrong' })).body.error).toBe(
      'incorrect_password',
    );
    expect(
      (await admin.post(`/api/admin/users/${randomUUID()}/credits`, { amount: 1, reason: 'x' }))
        .body.error,
    ).toBe('user_not_found');
    expect(
      (await admin.post(`/api/admin/users/${poor.me.id}/credits`, { amount: -1, reason: 'x' })).body
        .error,
    ).toBe('insufficient_credits');
    expect(
      (
        await admin.post(`/api/admin/users/${poor.me.id}/credits`, {
          amount: 1,
          reason: 'x',
          expectedBalance: 999,
        })
      ).body.error,
    ).toBe('balance_changed');
    expect(
      (await admin.post(`/api/admin/users/${adminId}/credits`, { amount: 1, reason: 'x' })).body
        .error,
    ).toBe('self_action');
    expect((await admin.get(`/api/admin/users/${randomUUID()}/ledger`)).status).toBe(404);
    const rich = await signedIn('rich');
    await server.deps.ledger.store.append(
      streams.credits(rich.me.id),
      [
        {
          type: 'CreditsGranted',
          data: {
            grantId: 'near-the-ceiling',
            kind: 'promotional',
            amount: 999_999_990,
            reason: 'Near the ceiling',
            tierId: null,
            reference: null,
          },
          metadata: { ...systemContext(), occurredAt: new Date().toISOString(), schemaVersion: 1 },
        },
      ],
      { expected: 'stream_exists' },
    );
    expect(
      (await admin.post(`/api/admin/users/${rich.me.id}/credits`, { amount: 1000, reason: 'x' }))
        .body.error,
    ).toBe('balance_limit');
    const gone = await signedIn('gone');
    await gone.client.delete('/api/me');
    expect(
      (await admin.post(`/api/admin/users/${gone.me.id}/credits`, { amount: 1, reason: 'x' })).body
        .error,
    ).toBe('account_closed');
    // Last: the unlock's limit (10 a minute per address) would lock the admins of this file out.
    let limited = 0;
    for (let i = 0; i < 12 && !limited; i++)
      if ((await locked.post('/api/admin/unlock', { password: 'wrong' })).status === 429) limited++;
    expect(limited).toBe(1);
  });

  it('every documented error code was produced (the ones this file cannot make are listed)', () => {
    const produced = new Set(
      answersHere()
        .filter((a) => a.code)
        .map((a) => `${a.method} ${a.route} ${a.status} ${a.code}`),
    );
    const producedAnywhere = new Set(
      answersHere()
        .filter((a) => a.code)
        .map((a) => `${a.status} ${a.code}`),
    );
    const missing = apiRoutes.flatMap((route) =>
      errorsOf(route)
        .filter((e) =>
          e.common
            ? !producedAnywhere.has(`${e.status} ${e.code}`)
            : !produced.has(`${route.method.toUpperCase()} ${route.path} ${e.status} ${e.code}`),
        )
        .map(
          (e) =>
            `${e.common ? '*' : `${route.method.toUpperCase()} ${route.path}`} ${e.status} ${e.code}`,
        ),
    );
    expect([...new Set(missing)].sort()).toEqual(notProducedHere);
  });
});

/**
 * Documented codes this file does not produce, and why: a test that makes one should take it off
 * this list (the comparison above is exact, so a new documented code needs a test or a line here).
 */
const notProducedHere = [
  // `409 conflict`: 20 lost races in a row on one stream (packages/event-store's handler tests).
  '* 409 conflict',
  // Anything unexpected; services/api/test/payments*.test.ts make Stripe fail (`internal_error`).
  '* 500 internal_error',
  // A transaction left open on the database (services/api/test/horizon.test.ts).
  '* 503 log_horizon_stalled',
  // Production only (NODE_ENV=production): the dev sign-in and the dev mailbox are off.
  'POST /api/auth/dev-login 404 not_found',
  'GET /api/dev/mail 404 not_found',
  'GET /api/dev/mail/previews 404 not_found',
  // A message or reactor that is not there (services/api/test/mail.test.ts).
  'POST /api/admin/reactors/{reactor}/messages/{id}/retry 404 not_found',
  // The profile is not readable after READ_YOUR_WRITES_TIMEOUT_MS: no projector running.
  'POST /api/auth/dev-login 503 not_ready',
  // Two pays of one local checkout at the same instant.
  'POST /api/checkout/local/{id}/pay 409 payment_in_progress',
  // A server without ADMIN_PASSWORD.
  'POST /api/admin/unlock 503 admin_password_not_configured',
  // No credit account behind a live session; a tier missing from our table; a failure inside.
  'POST /api/subscription/refresh 404 user_not_found',
  'POST /api/subscription/refresh 409 subscription_missing_tier',
  'POST /api/subscription/refresh 422 invalid_tier',
  'POST /api/subscription/refresh 500 refresh_failed',
  // With Stripe configured only (services/api/test/payments.test.ts).
  'POST /api/subscription/refresh 409 renewal_pending',
  // A signed event that is not an event as Stripe sends it (services/api/test/hostile-inputs.test.ts).
  'POST /api/webhooks/stripe 400 invalid_request',
  // The admin panel's refusals: services/api/test/admin.test.ts makes each of them.
  'POST /api/admin/users/{id}/block 404 user_not_found',
  'POST /api/admin/users/{id}/block 409 account_deleted',
  'POST /api/admin/users/{id}/block 409 self_action',
  'POST /api/admin/users/{id}/unblock 404 user_not_found',
  'POST /api/admin/users/{id}/unblock 409 account_deleted',
  'POST /api/admin/users/{id}/unblock 409 self_action',
  'POST /api/admin/users/{id}/role 404 user_not_found',
  'POST /api/admin/users/{id}/role 409 account_deleted',
  'POST /api/admin/users/{id}/role 409 self_action',
  'POST /api/admin/users/{id}/role 409 last_admin',
  'DELETE /api/admin/users/{id} 404 user_not_found',
  'DELETE /api/admin/users/{id} 409 self_action',
  'DELETE /api/admin/users/{id} 409 last_admin',
  'GET /api/admin/users/{id} 404 not_found',
  'GET /api/admin/users 400 invalid_request',
  'GET /api/admin/session 403 admin_required',
  'POST /api/admin/lock 403 admin_required',
  // Audit and finance: services/api/test/audit.test.ts and finance-reports.test.ts make each of them.
  'GET /api/admin/ledger 400 invalid_request',
  'GET /api/admin/activity 400 invalid_request',
  'POST /api/admin/projections/rebuild 409 rebuild_running',
  'GET /api/admin/exports/ledger 400 invalid_request',
  'GET /api/admin/exports/ledger/checksum 400 invalid_request',
  'GET /api/admin/reports/monthly 400 invalid_request',
  // Closing a month: services/api/test/finance-closing.test.ts makes each of them.
  'POST /api/admin/finance/months/{month}/close 400 invalid_request',
  'POST /api/admin/finance/months/{month}/close 409 month_closed',
  'POST /api/admin/finance/months/{month}/close 409 month_not_ended',
  'POST /api/admin/finance/months/{month}/close 409 month_not_next',
  // services/api/test/payments-payouts.test.ts
  'GET /api/admin/reports/payouts 400 invalid_request',
  'GET /api/admin/balance 400 invalid_request',
  'GET /api/admin/users/{id}/balance 400 invalid_request',
  'GET /api/admin/users/{id}/balance 404 not_found',
  // The voice guide's answers: services/api/test/voice.test.ts makes each of them.
  'GET /api/readings/{id}/voice 404 not_found',
  'POST /api/readings/{id}/voice/sessions 400 invalid_request',
  'POST /api/readings/{id}/voice/sessions 402 insufficient_credits',
  'POST /api/readings/{id}/voice/sessions 403 account_blocked',
  'POST /api/readings/{id}/voice/sessions 404 not_found',
  'POST /api/readings/{id}/voice/sessions 409 voice_session_active',
  'POST /api/readings/{id}/voice/sessions 409 voice_session_failed',
  'POST /api/readings/{id}/voice/sessions 502 voice_unavailable',
  'POST /api/readings/{id}/voice/sessions/{sessionId}/end 400 invalid_request',
  'POST /api/readings/{id}/voice/sessions/{sessionId}/end 404 not_found',
  'POST /api/readings/{id}/voice/sessions/{sessionId}/end 409 voice_session_starting',
].sort();
