import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { postgresForTests } from '@astra/event-store/testing';
import fc from 'fast-check';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forms } from './readingForms.ts';
import {
  type Answer,
  type Client,
  eventCount,
  startTestServer,
  type TestServer,
} from './support.ts';

/**
 * Hostile input against every route (docs/api.md), as a signed-in user, an unlocked admin and a
 * stranger: no answer is ever 5xx, and a refused request (4xx) writes no event. The routes left
 * out end the fuzzing sessions themselves: `POST /api/auth/logout` and `DELETE /api/me`.
 */

const WEBHOOK_SECRET = 'whsec_test_fuzz_secret';
const stripe = new Stripe('sk_test_only_for_signing');
/** Cases per database: about 30-40 s each on a developer machine. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
/** Printed with every report: `FUZZ_SEED=<seed>` replays a run. */
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

// --- hostile values -------------------------------------------------------------------------

const nastyText = [
  '\u0000',
  'Ada\u0000Lovelace',
  '\u0001\u0002',
  '\u001b[31m',
  '\uD800',
  'x\uDFFFy',
  '\uDC00\uD800',
  '\u200B',
  '\u200B\u200C\u200D\uFEFF',
  '\u00AD\u2060\u180E',
  '\u202E\u2066',
  '   ',
  '\t\n',
  '',
  'a'.repeat(5001),
  "'; DROP TABLE events; --",
  '%00',
  '\\u0000',
  '𝔄𝔡𝔞',
];
const hostileString = fc.oneof(
  fc.constantFrom(...nastyText),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
);
const hugeNumbers = [
  2 ** 31,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e308,
  -1e308,
  -1,
  0,
  -0,
  0.5,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];
const hostileNumber = fc.oneof(
  fc.constantFrom(...hugeNumbers),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  {
    weight: 2,
    arbitrary: fc.constantFrom(null, true, false, [], {}, 'NaN', '1e999', '-1', 'Infinity', [1]),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** One field of a valid body made hostile, a field dropped or an unknown one added. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const unknownKey = fc
    .tuple(hostileString, hostileValue)
    .map(([key, value]) => ({ ...valid, [key]: value }));
  if (keys.length === 0) return fc.oneof(fc.constant(valid), unknownKey, hostileValue);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(valid) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), hostileValue)
        .map(([key, value]) => ({ ...valid, [key]: value })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...keys).map((key) => {
        const { [key]: _dropped, ...rest } = valid;
        return rest;
      }),
    },
    { weight: 1, arbitrary: unknownKey },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** A percent-encoded path segment or query value: hostile text, invalid UTF-8, odd shapes. */
const encoded = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate: its (invalid) UTF-8 bytes, as a client that does not check sends them.
    return [...text]
      .map((c) => {
        const code = c.charCodeAt(0);
        return code >= 0xd800 && code <= 0xdfff
          ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`
          : encodeURIComponent(c);
      })
      .join('');
  }
};
const hostileSegment = (real: string[]) =>
  fc.oneof(
    fc.constantFrom(
      '%00',
      'abc%00',
      `${randomUUID()}%00`,
      '%ED%A0%80',
      '%FF',
      '%C0%80',
      '%E2%80%8B',
      '%2e%2e',
      'a'.repeat(300),
      '1',
      '-1',
      '99999999999999999999',
      randomUUID(),
      randomUUID().toUpperCase(),
      'cs_local_x',
      ...real,
    ),
    hostileString.map(encoded),
  );
const hostileQueryValue = fc.oneof(
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%FF', '%E2%80%8B', '1e999', '-1', '2147483648'),
  hostileString.map(encoded),
  hostileNumber.map(String),
);

// --- requests ---------------------------------------------------------------------------------

type Who = 'user' | 'admin' | 'anon';
interface Case {
  who: Who;
  method: string;
  path: string;
  /** A JSON value, or raw text sent as JSON. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

const birth = forms['natal-chart'];
const readingForms: Record<string, Record<string, unknown>> = forms;

/** A JSON body nested `depth` deep (the body parser takes it; recursing over it overflows). */
const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

interface Known {
  userId: string;
  readingId: string;
}

function requestCases(known: Known): fc.Arbitrary<Case> {
  const who = fc.constantFrom<Who>('user', 'admin', 'anon');
  const ids = hostileSegment([known.userId, known.readingId]);
  const idempotencyKey = fc.option(
    fc.oneof(fc.uuid(), fc.constantFrom('a b', 'x'.repeat(201), 'same-key')),
    { nil: undefined },
  );
  const json = (method: string, path: string, valid: Record<string, unknown>) =>
    fc.record({
      who,
      method: fc.constant(method),
      path: fc.constant(path),
      body: mutated(valid),
      headers: idempotencyKey.map((key) =>
        key === undefined ? {} : ({ 'idempotency-key': key } as Record<string, string>),
      ),
    });
  const get = (path: fc.Arbitrary<string>, method = 'GET') =>
    fc.record({ who, method: fc.constant(method), path });

  return fc.oneof(
    get(fc.constantFrom('/api/health', '/api/auth/providers', '/api/me', '/api/apps')),
    get(fc.constantFrom('/api/pricing', '/api/subscription', '/api/nowhere')),
    get(hostileQueryValue.map((v) => `/api/me/ledger?page=${v}`)),
    get(hostileQueryValue.map((v) => `/api/auth/google?returnUrl=${v}`)),
    get(hostileQueryValue.map((v) => `/api/auth/apple?returnUrl=${v}`)),
    get(hostileQueryValue.map((v) => `/api/auth/google/callback?code=${v}&state=${v}`)),
    get(
      fc
        .tuple(hostileQueryValue, hostileQueryValue, hostileQueryValue, fc.boolean())
        .map(
          ([search, appId, page, twice]) =>
            `/api/library?search=${search}&appId=${appId}&page=${page}${twice ? `&search=${search}` : ''}`,
        ),
    ),
    get(hostileQueryValue.map((v) => `/api/places?q=${v}`)),
    get(ids.map((id) => `/api/readings/${id}`)),
    get(
      ids.map((id) => `/api/readings/${id}`),
      'DELETE',
    ),
    get(ids.map((id) => `/api/avatars/${id}`)),
    get(ids.map((id) => `/api/checkout/sessions/${id}`)),
    get(ids.map((id) => `/api/checkout/local/${id}`)),
    get(
      ids.map((id) => `/api/checkout/local/${id}/pay`),
      'POST',
    ),
    get(
      ids.map((id) => `/api/checkout/local/${id}/cancel`),
      'POST',
    ),
    get(ids.map((id) => `/api/admin/users/${id}/ledger`)),
    get(fc.constant('/api/admin/finance/months')),
    get(
      hostileSegment(['2026-01', '2999-12']).map(
        (month) => `/api/admin/finance/months/${month}/close`,
      ),
      'POST',
    ),
    fc.tuple(ids, mutated({ amount: 5, reason: 'Fuzz' })).map(([id, body]) => ({
      who: 'admin' as Who,
      method: 'POST',
      path: `/api/admin/users/${id}/credits`,
      body,
    })),
    json('POST', '/api/auth/dev-login', { email: 'fuzz@example.com', fullName: 'Fuzz' }),
    json('POST', '/api/admin/unlock', { password: 'wrong' }),
    json('PATCH', '/api/me', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1990-12-10',
      birthTime: '13:00',
      birthCity: 'London',
      birthCountry: 'GB',
      language: 'en',
    }),
    json('POST', '/api/feedback', { message: 'Lovely' }),
    ...Object.entries(readingForms).map(([kind, form]) =>
      json('POST', `/api/readings/${kind}`, form),
    ),
    fc.record({
      who,
      method: fc.constant('POST'),
      path: fc.constant('/api/readings/compatibility'),
      body: fc
        .tuple(fc.constantFrom('person1', 'person2'), mutated(birth))
        .map(([key, person]) => ({ ...readingForms.compatibility, [key]: person })),
    }),
    json('POST', '/api/checkout', { tierId: 1, isSubscription: false }),
    json('POST', '/api/subscription/change', { tierId: 2 }),
    json('POST', '/api/subscription/cancel', { reason: 'too dear' }),
    json('POST', '/api/subscription/refresh', {}),
    fc.record({
      who,
      method: fc.constantFrom('POST', 'PATCH'),
      path: fc.constantFrom(
        '/api/feedback',
        '/api/me',
        '/api/readings/tarot-traditional',
        '/api/admin/unlock',
        '/api/checkout',
      ),
      raw: fc.constantFrom(nested(50_000), nested(1_000), nested(65), '"text"', '[]', 'null', '{'),
      headers: fc.constant({ 'idempotency-key': randomUUID() }),
    }),
  );
}

// --- Stripe events ----------------------------------------------------------------------------

const stripeId = (prefix: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.uuid().map((u) => `${prefix}_test_${u.replaceAll('-', '')}`) },
    { weight: 1, arbitrary: hostileValue },
  );
const maybe = <T>(arbitrary: fc.Arbitrary<T>, hostile = hostileValue) =>
  fc.oneof({ weight: 3, arbitrary }, { weight: 1, arbitrary: hostile });
const money = maybe(fc.integer({ min: 0, max: 100_000 }));
const unixTime = maybe(fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }));

function stripeEvents(userId: string) {
  const user = maybe(fc.constant(userId));
  const tierId = maybe(
    fc.constantFrom('1', '2', '3', '4'),
    fc.oneof(hostileValue, hostileNumber.map(String)),
  );
  const objects = fc.oneof(
    fc.record({
      type: fc.constantFrom('checkout.session.completed', 'checkout.session.expired'),
      object: fc.record({
        id: stripeId('cs'),
        mode: maybe(fc.constantFrom('payment', 'subscription')),
        payment_status: maybe(fc.constant('paid')),
        client_reference_id: user,
        metadata: maybe(fc.record({ userId: user, tierId, billingType: fc.constant('one_time') })),
        payment_intent: stripeId('pi'),
        amount_total: money,
      }),
    }),
    fc.record({
      type: fc.constant('invoice.paid'),
      object: fc.record({
        id: stripeId('in'),
        parent: maybe(
          fc.record({
            subscription_details: maybe(
              fc.record({
                subscription: stripeId('sub'),
                metadata: maybe(fc.record({ userId: user, tierId })),
              }),
            ),
          }),
        ),
        lines: maybe(
          fc.record({
            data: maybe(
              fc.array(
                fc.record({ period: maybe(fc.record({ start: unixTime, end: unixTime })) }),
                { maxLength: 1 },
              ),
            ),
          }),
        ),
        period_start: unixTime,
        period_end: unixTime,
        amount_paid: money,
      }),
    }),
    fc.record({
      type: fc.constantFrom('customer.subscription.updated', 'customer.subscription.deleted'),
      object: fc.record({
        id: stripeId('sub'),
        metadata: maybe(fc.record({ userId: user, tierId })),
        cancel_at_period_end: maybe(fc.boolean()),
        status: maybe(fc.constantFrom('active', 'canceled')),
      }),
    }),
    fc.record({
      type: fc.constant('charge.refunded'),
      object: fc.record({
        id: stripeId('ch'),
        metadata: maybe(fc.record({ userId: user, billingType: fc.constant('one_time') })),
        payment_intent: stripeId('pi'),
        amount: money,
        amount_refunded: money,
        currency: maybe(fc.constant('usd')),
      }),
    }),
  );
  return fc
    .tuple(
      objects,
      fc.constantFrom(
        'whole',
        'whole',
        'whole',
        'no data',
        'null object',
        'no id',
        'bad id',
        'bad type',
        'array',
      ),
      hostileValue,
    )
    .map(([{ type, object }, shape, junk]) => {
      const event: Record<string, unknown> = {
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        object: 'event',
        type,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object },
      };
      if (shape === 'no data') delete event.data;
      if (shape === 'null object') event.data = { object: null };
      if (shape === 'no id') delete event.id;
      if (shape === 'bad id') event.id = junk;
      if (shape === 'bad type') event.type = junk;
      return shape === 'array' ? [event] : event;
    });
}

// --- the run ----------------------------------------------------------------------------------

interface Problem {
  request: string;
  status: number;
  body: unknown;
  written?: number;
}

const jsonOf = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

const describeRequest = (c: Case) =>
  `${c.who} ${c.method} ${c.path.slice(0, 120)} ${c.raw !== undefined ? `raw(${c.raw.length})` : JSON.stringify(c.body)?.slice(0, 200)}`;

for (const storage of ['pglite', 'postgres'] as const) {
  describe.runIf(storage === 'pglite' || (await postgresForTests()))(`fuzz on ${storage}`, () => {
    let server: TestServer;
    let clients: Record<Who, Client>;
    let known: Known;
    beforeAll(async () => {
      server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }, storage);
      const user = server.client().unchecked();
      const me = await user.signIn(`fuzz-${randomUUID()}@example.com`, 'Fuzz User');
      const admin = server.client().unchecked();
      await admin.signInAsAdmin();
      const reading = await user.post('/api/readings/life-path', readingForms['life-path']);
      known = { userId: me.id, readingId: reading.body.readingId };
      clients = { user, admin, anon: server.client().unchecked() };
    });
    afterAll(() => server?.close());

    /**
     * Sends one case with its own `X-Request-Id`; a 5xx is a problem, and so is a refusal after
     * which events appeared that carry its request id or event id as their correlation (the
     * local gateway may still be delivering an earlier case's webhook: those are not this
     * case's writes).
     */
    async function check(
      problems: Problem[],
      label: string,
      send: (requestId: string) => Promise<Answer>,
      eventId?: unknown,
    ): Promise<Answer> {
      const requestId = `fuzz-${randomUUID()}`;
      const before = await eventCount(server);
      const answer = await send(requestId);
      let written = (await eventCount(server)) - before;
      if (answer.status >= 400 && answer.status < 500 && written !== 0) {
        const correlations = [requestId, typeof eventId === 'string' ? eventId : 'undefined'];
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM events
          WHERE metadata->>'correlationId' = ANY(${correlations})`.execute(server.deps.db);
        written = rows[0]!.n;
      }
      // The one refusal that is recorded on purpose: a wrong admin password, for the audit.
      const recordedRefusal =
        answer.status === 403 &&
        (answer.body as { error?: string })?.error === 'incorrect_password';
      if (answer.status >= 500)
        problems.push({ request: label, status: answer.status, body: answer.body });
      else if (answer.status >= 400 && written !== 0 && !recordedRefusal)
        problems.push({ request: label, status: answer.status, body: answer.body, written });
      return answer;
    }

    const report = (what: string, runs: number, problems: Problem[]) => {
      const fivexx = problems.filter((p) => p.status >= 500).length;
      console.info(
        `fuzz ${storage} ${what} (seed ${seed}): ${runs} cases, ${fivexx} answered 5xx, ${problems.length - fivexx} refusals wrote events`,
      );
      if (process.env.FUZZ_REPORT)
        appendFileSync(
          process.env.FUZZ_REPORT,
          problems
            .map((p) => `${storage} ${p.status} ${p.request} => ${JSON.stringify(p.body)}\n`)
            .join(''),
        );
    };

    it('no route answers 5xx, and a refusal writes nothing', { timeout: 120_000 }, async () => {
      const problems: Problem[] = [];
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(requestCases(known), async (c) => {
          runs++;
          // dev-login signs the client in as someone else: a stranger's client each time.
          const client =
            c.path === '/api/auth/dev-login' ? server.client().unchecked() : clients[c.who];
          await check(problems, describeRequest(c), (requestId) =>
            client.request(c.method, c.path, c.raw ?? jsonOf(c.body), {
              ...(c.raw !== undefined ? { 'content-type': 'application/json' } : {}),
              'x-request-id': requestId,
              ...c.headers,
            }),
          );
          return true;
        }),
        { numRuns: RUNS, seed },
      );
      report('routes', runs, problems);
      expect(problems).toEqual([]);
    });

    it('the Stripe webhook never answers 5xx, and a refusal writes nothing', {
      timeout: 120_000,
    }, async () => {
      const problems: Problem[] = [];
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(stripeEvents(known.userId), async (event) => {
          runs++;
          const payload = JSON.stringify(event);
          const header = stripe.webhooks.generateTestHeaderString({
            payload,
            secret: WEBHOOK_SECRET,
          });
          await check(
            problems,
            `webhook ${payload.slice(0, 3000)}`,
            (requestId) =>
              clients.anon.request('POST', '/api/webhooks/stripe', payload, {
                'stripe-signature': header,
                'x-request-id': requestId,
              }),
            (event as { id?: unknown }).id,
          );
          return true;
        }),
        { numRuns: Math.ceil(RUNS / 2), seed },
      );
      report('webhook', runs, problems);
      expect(problems).toEqual([]);
    });
  });
}
