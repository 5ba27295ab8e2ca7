import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.ts';
import { createLogger, defaultLogLevel } from '../src/observability/logger.ts';
import { builtWebApp, freePort, startTestServer, type TestServer } from './support.ts';

const WEBHOOK_SECRET = 'whsec_test_observability_secret';
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const stripe = new Stripe('sk_test_only_for_signing');

/** Polls `check` until it holds (no fixed sleeps), failing after `timeoutMs`. */
async function eventually<T>(check: () => T | undefined | false, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A logger writing JSON lines into memory, as production writes them to stdout. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  return {
    logger,
    lines,
    text: () => lines.join(''),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, any>),
  };
}

/** One sample's value from Prometheus' text format; undefined when the series is absent. */
function sample(exposition: string, name: string, labels: Record<string, string> = {}) {
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => given[key] === value))
      return Number(match[3]);
  }
  return undefined;
}

function signedEvent(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return { payload, header };
}

const checkoutSession = (userId: string, marker: string) => ({
  id: `cs_test_${randomUUID().replaceAll('-', '')}`,
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  client_reference_id: userId,
  metadata: { userId, tierId: '1', billingType: 'one_time', marker },
  payment_intent: `pi_test_${randomUUID().replaceAll('-', '')}`,
  amount_total: 1,
  currency: 'usd',
});

describe('observability: logs, metrics, security headers', () => {
  let server: TestServer;
  const log = capturedLogger();
  beforeAll(async () => {
    // The security headers are checked on the served web app too.
    await builtWebApp();
    server = await startTestServer(
      {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        METRICS_PORT: '0',
        METRICS_TOKEN,
      },
      undefined,
      { logger: log.logger },
    );
  }, 180_000);
  afterAll(() => server?.close());

  describe('structured JSON logs', () => {
    it('writes one JSON line per request with its request id and its commands’ correlation id', async () => {
      const client = server.client();
      const email = `log-${randomUUID()}@example.com`;
      const answer = await client.post('/api/auth/dev-login', { email });
      expect(answer.status).toBe(200);
      const requestId = answer.headers.get('x-request-id');
      expect(requestId).toBeTruthy();

      const line = await eventually(() =>
        log.records().find((r) => r.req?.path === '/api/auth/dev-login' && r.reqId === requestId),
      );
      expect(line).toMatchObject({
        level: 'info',
        name: 'astra-api',
        reqId: requestId,
        correlationId: requestId,
        req: { method: 'POST', path: '/api/auth/dev-login' },
        res: { statusCode: 200, route: '/api/auth/dev-login' },
      });
      expect(line.responseTime).toEqual(expect.any(Number));
      expect(line.time).toEqual(expect.any(String));
      // The id on the log line is the one the sign-in's events carry.
      const { rows } = await sql<{ correlation: string }>`
        SELECT DISTINCT metadata->>'correlationId' AS correlation FROM events
        WHERE stream_name = ${`user-${answer.body.id}`}`.execute(server.deps.db);
      expect(rows.map((r) => r.correlation)).toEqual([requestId]);

      // A caller's own X-Request-Id is kept, answered and logged.
      const own = `trace-${randomUUID()}`;
      const me = await client.get('/api/me', { 'x-request-id': own });
      expect(me.headers.get('x-request-id')).toBe(own);
      await eventually(() =>
        log.records().find((r) => r.reqId === own && r.res?.route === '/api/me'),
      );
    });

    it('never logs e-mail addresses, cookies, Authorization or Stripe-Signature headers, or bodies', async () => {
      const client = server.client();
      const email = `secret-person-${randomUUID()}@example.com`;
      const signedIn = await client.post(
        '/api/auth/dev-login',
        { email, fullName: 'Hidden Name' },
        { authorization: 'Bearer authz-secret-value-123' },
      );
      expect(signedIn.status).toBe(200);
      const cookieValue = client.cookie!.split('=')[1]!;
      await client.get('/api/me');

      const marker = `marker-${randomUUID()}`;
      const event = signedEvent('checkout.session.completed', {
        ...checkoutSession(signedIn.body.id, marker),
        customer_details: { email },
      });
      const delivered = await server
        .client()
        .request('POST', '/api/webhooks/stripe', event.payload, {
          'stripe-signature': event.header,
        });
      expect(delivered.status).toBe(200);
      const webhookId = delivered.headers.get('x-request-id');
      await eventually(() =>
        log.records().find((r) => r.reqId === webhookId && r.res?.route === '/api/webhooks/stripe'),
      );
      await eventually(() => log.records().find((r) => r.res?.route === '/api/me'));

      const text = log.text();
      expect(text).not.toContain(email);
      expect(text).not.toContain('Hidden Name');
      expect(text).not.toContain('authz-secret-value-123');
      expect(text).not.toContain(cookieValue);
      expect(text).not.toContain(event.header);
      expect(text).not.toContain(event.header.split(',')[1]!); // the v1= signature alone
      expect(text).not.toContain(marker);
      expect(text).not.toContain(WEBHOOK_SECRET);
    });

    it('redacts personal fields at any depth it reaches, and e-mail addresses in messages and errors', () => {
      const own = capturedLogger();
      const person = {
        email: 'ana.lima@example.com',
        firstName: 'Anabela',
        lastName: 'Limoeiro',
        fullName: 'Anabela Limoeiro',
        birthDate: '1987-03-14',
        birthCity: 'Valparaíso',
        question: 'Will my secret affair with Bruno stay hidden?',
      };
      own.logger.info({ ...person, body: { message: 'A feedback text' } }, 'Top level');
      own.logger.warn({ user: person, data: { input: { partner: 'Bruno' } } }, 'One level down');
      own.logger.warn({ request: { user: person } }, 'Two levels down');
      own.logger.info('Signed in as %s', 'bo.berg@example.org');
      own.logger.error(
        { err: new Error('No account for cy.dahl@example.net') },
        'Sign-in of di@example.com failed',
      );
      const text = own.text();
      for (const value of [
        ...Object.values(person),
        'A feedback text',
        'Bruno',
        'bo.berg',
        'cy.dahl',
      ])
        expect(text).not.toContain(value);
      expect(text).not.toMatch(/@example\./);
      const failed = own.records().at(-1)!;
      // The error is still there, with its address taken out.
      expect(failed.msg).toBe('Sign-in of [email] failed');
      expect(failed.err).toMatchObject({ type: 'Error', message: 'No account for [email]' });
    });

    it('answers X-Request-Id on a body that is not JSON, and logs it', async () => {
      const answer = await server.client().request('POST', '/api/auth/dev-login', '{"email": ', {
        'content-type': 'application/json',
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
      const requestId = answer.headers.get('x-request-id');
      expect(requestId).toMatch(/^[\w.:-]+$/);
      const line = await eventually(() => log.records().find((r) => r.reqId === requestId));
      expect(line).toMatchObject({ level: 'warn', res: { statusCode: 400 } });
    });

    it('logs the path without its query (OAuth codes, checkout session ids)', async () => {
      await server.client().get('/api/health?code=oauth-code-secret-42');
      await eventually(() =>
        log.records().find((r) => r.req?.path === '/api/health' && r.level === 'debug'),
      );
      expect(log.text()).not.toContain('oauth-code-secret-42');
    });

    it('is silent under vitest unless LOG_LEVEL is set, else info', () => {
      expect(defaultLogLevel({ VITEST: 'true' })).toBe('silent');
      expect(defaultLogLevel({ VITEST: 'true', LOG_LEVEL: 'error' })).toBe('error');
      expect(defaultLogLevel({})).toBe('info');
      expect(defaultLogLevel({ LOG_LEVEL: 'loud' })).toBe('info');
      expect(createLogger({ level: 'warn' }).level).toBe('warn');
    });
  });

  describe('Prometheus metrics', () => {
    const scrape = async (url = server.metricsUrl!) => {
      const answer = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      return answer.text();
    };

    it('counts requests by route, commands, conflicts, webhooks, readings and projection lag', async () => {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      // Other tests use this server too: counters are compared with their values before.
      const before = await scrape();
      const delta = (text: string, name: string, labels: Record<string, string>) =>
        (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      const member = server.client();
      const { id } = await member.signIn(`metrics-${randomUUID()}@example.com`);
      const missing = randomUUID();
      expect((await member.get(`/api/readings/${missing}`)).status).toBe(404);
      const reading = await member.post('/api/readings/life-path', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        birthDate: '1990-12-10',
      });
      expect(reading.status).toBe(201);
      const event = signedEvent('checkout.session.completed', checkoutSession(id, 'm'));
      const delivered = await server
        .client()
        .request('POST', '/api/webhooks/stripe', event.payload, {
          'stripe-signature': event.header,
        });
      expect(delivered.status).toBe(200);
      // A second writer on the same credit stream: the API's cached state is stale, its next
      // append conflicts once and is retried.
      await new Ledger(server.deps.ledger.store).handle(
        'credits',
        id,
        {
          type: 'GrantCredits',
          grantId: `other-${randomUUID()}`,
          kind: 'promotional',
          amount: 1,
          reason: 'Another process',
          tierId: null,
          reference: null,
        },
        { actor: { kind: 'system' }, correlationId: randomUUID() },
      );
      const admin = server.client();
      await admin.signInAsAdmin();
      expect(
        (await admin.post(`/api/admin/users/${id}/credits`, { amount: 2, reason: 'Thanks' }))
          .status,
      ).toBe(200);
      expect((await admin.post(`/api/admin/users/${id}/role`, { role: 'admin' })).status).toBe(200);

      const text = await scrape();
      // Routes are Express patterns: the id of the URL is nowhere.
      expect(text).not.toContain(missing);
      expect(text).not.toContain(id);
      expect(
        sample(text, 'astra_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/readings/:id',
          status_code: '404',
        }),
      ).toBe(1);
      expect(
        sample(text, 'astra_http_request_duration_seconds_count', {
          method: 'POST',
          route: '/api/admin/users/:id/credits',
          status_code: '200',
        }),
      ).toBe(1);
      const signInTime = sample(text, 'astra_http_request_duration_seconds_sum', {
        route: '/api/auth/dev-login',
        status_code: '200',
      });
      expect(signInTime).toBeGreaterThan(0);
      expect(signInTime).toBeLessThan(60);

      // Credits: the sign-up's grant, the reading's spend, the purchase, the admin's grant.
      expect(
        delta(text, 'astra_commands_total', { category: 'credits', outcome: 'appended' }),
      ).toBeGreaterThanOrEqual(4);
      // The reading: requested, completed.
      expect(
        delta(text, 'astra_commands_total', { category: 'reading', outcome: 'appended' }),
      ).toBe(2);
      expect(delta(text, 'astra_commands_total', { category: 'stripe', outcome: 'appended' })).toBe(
        1,
      );
      // The promotion: the admin registry's stream, then the user's.
      expect(delta(text, 'astra_commands_total', { category: 'admins', outcome: 'appended' })).toBe(
        1,
      );
      expect(delta(text, 'astra_command_conflicts_total', { category: 'credits' })).toBe(1);

      expect(
        delta(text, 'astra_stripe_webhooks_total', {
          type: 'checkout.session.completed',
          outcome: 'granted',
        }),
      ).toBe(1);
      expect(
        delta(text, 'astra_reading_generation_seconds_count', {
          kind: 'lifePath',
          writer: 'offline',
          outcome: 'written',
        }),
      ).toBe(1);

      for (const projection of ['profiles', 'ledger_entries', 'admin_stats']) {
        const lag = sample(text, 'astra_projection_lag', { projection });
        expect(lag, projection).toBeGreaterThanOrEqual(0);
        expect(lag, projection).toBeLessThan(1000);
        expect(sample(text, 'astra_projection_position', { projection })).toBeGreaterThan(0);
        expect(sample(text, 'astra_projection_failed', { projection })).toBe(0);
      }
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    });

    it('is not served on the public port without the bearer token', async () => {
      const publicUrl = `${server.url}/metrics`;
      expect((await fetch(publicUrl)).status).toBe(401);
      expect(
        (await fetch(publicUrl, { headers: { authorization: 'Bearer not-the-token-at-all' } }))
          .status,
      ).toBe(401);
      const allowed = await fetch(publicUrl, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('astra_http_request_duration_seconds');
      // The metrics port asks for the token too once one is set.
      expect((await fetch(server.metricsUrl!)).status).toBe(401);
    });
  });

  describe('security headers', () => {
    const csp = (headers: Headers) =>
      Object.fromEntries(
        (headers.get('content-security-policy') ?? '')
          .split(';')
          .map((d) => d.trim())
          .filter(Boolean)
          .map((d) => {
            const [name, ...values] = d.split(/\s+/);
            return [name!, values];
          }),
      ) as Record<string, string[]>;

    const expectStrict = (headers: Headers) => {
      const policy = csp(headers);
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(policy['script-src']).toContain("'self'");
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(policy['script-src']).not.toContain("'unsafe-eval'");
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
      expect(policy['img-src']).toEqual(["'self'", 'https://*.googleusercontent.com']);
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('referrer-policy')).toBe('same-origin');
      expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(headers.get('x-powered-by')).toBeNull();
      return policy;
    };

    it('sends them on the web app’s page and on API answers', async () => {
      const page = await server.client().get('/');
      expect(page.status).toBe(200);
      expectStrict(page.headers);
      const health = await server.client().get('/api/health');
      expectStrict(health.headers);
      const missing = await server.client().get('/api/nothing-here');
      expect(missing.status).toBe(404);
      expectStrict(missing.headers);
      const webhook = await server.client().request('POST', '/api/webhooks/stripe', '{}');
      expect(webhook.status).toBe(400);
      expectStrict(webhook.headers);
    });

    it('allows the built web app’s inline script by its hash only, on every page, and it has no inline handlers', async () => {
      // `/` and `/pricing` are drawn on the server (drawnPages.ts), `/auth` is index.html. The
      // drawn page's answers are data (`type="application/json"`), not a script.
      for (const path of ['/', '/pricing', '/auth']) {
        const page = await server.client().get(path);
        expect(page.headers.get('content-type')).toContain('text/html');
        const policy = expectStrict(page.headers);
        const html = String(page.body);
        const inline = [
          ...html.matchAll(
            /<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>([\s\S]*?)<\/script>/gi,
          ),
        ].map((m) => m[1]!);
        expect(inline, path).toHaveLength(1);
        for (const body of inline) {
          const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
          expect(policy['script-src']).toContain(hash);
        }
        expect(policy['script-src']).toHaveLength(1 + inline.length);
        expect(html).not.toMatch(/\son[a-z]+\s*=/i);
        expect(html).not.toMatch(/javascript:/i);
      }
    });
  });
});

describe('metrics without a token, and refunds', () => {
  let server: TestServer;
  beforeAll(async () => {
    // An OpenAI base URL where nothing listens: every reading's text fails and is refunded.
    const closed = await freePort();
    server = await startTestServer({
      METRICS_PORT: '0',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      OPENAI_MODEL: 'gpt-test',
      OPENAI_MAX_RETRIES: '0',
    });
  });
  afterAll(() => server?.close());

  it('does not serve /metrics on the public port at all without METRICS_TOKEN', async () => {
    const answer = await fetch(`${server.url}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('astra_');
  });

  it('counts a failed reading’s time and its refund', async () => {
    const member = server.client();
    await member.signIn(`refund-${randomUUID()}@example.com`);
    const answer = await member.post('/api/readings/life-path', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1990-12-10',
    });
    expect(answer.status).toBe(502);
    const text = await (await fetch(server.metricsUrl!)).text();
    expect(sample(text, 'astra_refunds_total', { reason: 'generation_failed' })).toBe(1);
    expect(
      sample(text, 'astra_reading_generation_seconds_count', {
        kind: 'lifePath',
        writer: 'openai:gpt-test',
        outcome: 'failed',
      }),
    ).toBe(1);
  });
});
