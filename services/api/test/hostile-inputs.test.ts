import { randomUUID } from 'node:crypto';
import {
  adminCreditRequestSchema,
  checkoutRequestSchema,
  devLoginRequestSchema,
  feedbackRequestSchema,
  text,
} from '@astra/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forms } from './readingForms.ts';
import { type Client, eventCount, startTestServer, type TestServer } from './support.ts';

/**
 * The inputs an outside hostile run found answering 500 (issue "Hardening", item 3): each is now
 * a 400 naming the failing field (a 404 for a path id), and writes nothing.
 */

const WEBHOOK_SECRET = 'whsec_test_hostile_inputs';
const stripe = new Stripe('sk_test_only_for_signing');

const fieldsOf = (body: { fields?: { field: string; message: string }[] }) =>
  (body.fields ?? []).map((f) => f.field);

describe('the shared text rule (contracts)', () => {
  const name = text().min(1, 'is required').max(100);
  const message = (value: string, multiline = false) =>
    text({ multiline })
      .safeParse(value)
      .error?.issues.map((issue) => issue.message);

  it('refuses NUL and other controls, keeping tab and line breaks where text is multi-line', () => {
    expect(message('Ada\u0000')).toEqual(['must not contain control characters']);
    expect(message('a\u001bb')).toEqual(['must not contain control characters']);
    expect(message('a\u0085b')).toEqual(['must not contain control characters']);
    expect(message('one\ntwo')).toEqual(['must not contain control characters']);
    expect(message('one\n\ttwo\r\nthree', true)).toBeUndefined();
    expect(message('one\u0000two', true)).toEqual(['must not contain control characters']);
  });

  it('refuses lone surrogates, keeps pairs', () => {
    for (const lone of ['\uD800', 'x\uDFFFy', '\uDC00\uD800']) {
      expect(message(lone)).toEqual([
        'must be valid Unicode text (it has half of a surrogate pair)',
      ]);
    }
    expect(message('𝔄𝔡𝔞 😀')).toBeUndefined();
  });

  it('trims, and refuses a text of only invisible characters', () => {
    expect(name.parse('  Ada  ')).toBe('Ada');
    for (const invisible of ['\u200B', '\u200B\u200C\u200D\uFEFF', '\u00AD\u2060', '\u3164']) {
      expect(message(invisible)).toEqual(['must be text someone can read']);
    }
    expect(name.safeParse('   ').error?.issues.map((i) => i.message)).toEqual(['is required']);
    // Joiners inside a readable text are fine (emoji sequences, Indic scripts).
    expect(message('👩\u200D💻 Ada')).toBeUndefined();
  });

  it('uses the rule in request schemas: feedback is multi-line, names are not', () => {
    expect(feedbackRequestSchema.safeParse({ message: 'Thanks!\nLovely' }).success).toBe(true);
    expect(feedbackRequestSchema.safeParse({ message: '\u200B' }).success).toBe(false);
  });

  it('tells an admin amount out of range its range, not "must be a number"', () => {
    const issues = adminCreditRequestSchema.safeParse({ amount: 1_000_001, reason: 'x' }).error
      ?.issues;
    expect(issues?.map((i) => i.message)).toEqual(['must be between -1,000,000 and 1,000,000']);
    expect(
      adminCreditRequestSchema.safeParse({ amount: '5', reason: 'x' }).error?.issues[0]?.message,
    ).toBe('must be a number');
  });

  it('bounds tier ids to PostgreSQL integers', () => {
    for (const tierId of [2 ** 31, 2 ** 53, 0, -1]) {
      const issue = checkoutRequestSchema.safeParse({ tierId, isSubscription: false }).error
        ?.issues[0];
      expect(issue).toMatchObject({
        path: ['tierId'],
        message: 'must be a tier id (1 to 2147483647)',
      });
    }
  });

  it('trims an e-mail before checking it, as documented', () => {
    expect(devLoginRequestSchema.parse({ email: '  ada@example.com \n' }).email).toBe(
      'ada@example.com',
    );
  });
});

describe('hostile inputs over HTTP', () => {
  let server: TestServer;
  let user: Client;
  let admin: Client;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    user = server.client();
    userId = (await user.signIn(`hostile-${randomUUID()}@example.com`, 'Hostile Test')).id;
    admin = server.client();
    await admin.signInAsAdmin();
  });
  afterAll(() => server?.close());

  /** Sends a request that must be refused with `status`, naming `field`, writing nothing. */
  async function refused(
    send: () => Promise<{ status: number; body: any }>,
    status: number,
    field?: string,
  ) {
    const before = await eventCount(server);
    const answer = await send();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (field) expect(fieldsOf(answer.body)).toContain(field);
    expect(await eventCount(server)).toBe(before);
    return answer.body;
  }

  const nasty = {
    nul: 'Ada\u0000',
    surrogate: 'Ada\uD800',
    invisible: '\u200B\u200D\uFEFF',
  };

  it('refuses NUL, lone surrogates and invisible-only text in every free-text field (400, named)', async () => {
    const birth = forms['natal-chart'];
    const cases: [Client, string, string, Record<string, unknown>, string][] = [
      [user, 'POST', '/api/readings/natal-chart', birth, 'firstName'],
      [user, 'POST', '/api/readings/natal-chart', birth, 'city'],
      [user, 'POST', '/api/readings/natal-chart', birth, 'country'],
      [
        user,
        'POST',
        '/api/readings/life-path',
        { ...birth, birthTime: undefined, city: undefined, country: undefined },
        'lastName',
      ],
      [
        user,
        'POST',
        '/api/readings/tarot-traditional',
        { firstName: 'Ada', question: 'Why?' },
        'question',
      ],
      [
        user,
        'POST',
        '/api/readings/tarot-celtic-cross',
        { firstName: 'Ada', question: 'Why?' },
        'question',
      ],
      [user, 'POST', '/api/feedback', { message: 'Lovely' }, 'message'],
      [user, 'PATCH', '/api/me', { firstName: 'Ada' }, 'firstName'],
      [user, 'PATCH', '/api/me', { birthCity: 'London' }, 'birthCity'],
      [user, 'POST', '/api/subscription/cancel', { reason: 'too dear' }, 'reason'],
      [admin, 'POST', `/api/admin/users/${userId}/credits`, { amount: 5 }, 'reason'],
    ];
    for (const [client, method, path, valid, field] of cases) {
      for (const value of Object.values(nasty)) {
        const body = JSON.parse(JSON.stringify({ ...valid, [field]: value }));
        await refused(() => client.request(method, path, body), 400, field);
      }
    }
    // Both people of a compatibility reading.
    await refused(
      () =>
        user.post('/api/readings/compatibility', {
          person1: birth,
          person2: { ...birth, city: nasty.nul },
        }),
      400,
      'person2.city',
    );
    // A new account's name.
    await refused(
      () =>
        server.client().post('/api/auth/dev-login', {
          email: `n-${randomUUID()}@example.com`,
          fullName: nasty.invisible,
        }),
      400,
      'fullName',
    );
  });

  it('refuses NUL and invalid UTF-8 in queries with a 400 naming the parameter', async () => {
    for (const value of ['%00', 'a%00b', '%E2%80%8B', '%E2%80%8B%EF%BB%BF']) {
      await refused(() => user.get(`/api/library?search=${value}`), 400, 'search');
      await refused(() => user.get(`/api/places?q=${value}`), 400, 'q');
    }
    await refused(() => user.get('/api/me/ledger?page=%00'), 400, 'page');
    // Invalid UTF-8 in a query decodes to U+FFFD (readable, valid): searched, never a 500.
    expect((await user.get('/api/library?search=%ED%A0%80')).status).toBe(200);
  });

  it('answers 404 for path ids of the wrong shape, never a database error', async () => {
    for (const id of ['%00', `${randomUUID()}%00`, '%E2%80%8B', '1', '99999999999999999999']) {
      await refused(() => user.get(`/api/readings/${id}`), 404);
      await refused(() => user.delete(`/api/readings/${id}`), 404);
      await refused(() => user.get(`/api/checkout/sessions/${id}`), 404);
      await refused(() => user.get(`/api/checkout/local/${id}`), 404);
      await refused(() => user.post(`/api/checkout/local/${id}/pay`), 404);
      await refused(() => admin.get(`/api/admin/users/${id}/ledger`), 404);
      await refused(
        () => admin.post(`/api/admin/users/${id}/credits`, { amount: 5, reason: 'x' }),
        404,
      );
    }
    // A path that is no UTF-8 at all is refused by the router itself (400, before any route).
    await refused(() => user.get('/api/readings/%ED%A0%80'), 400);
    // Cancelling is documented to answer 200 whatever the id; a malformed one touches nothing.
    const cancel = await user.post('/api/checkout/local/%00/cancel');
    expect(cancel).toMatchObject({ status: 200, body: { redirectUrl: '/cancel' } });
  });

  it('refuses tier ids past 2^31 (400 tierId), and states the admin range', async () => {
    for (const tierId of [2 ** 31, 2 ** 53, 1e308]) {
      await refused(
        () => user.post('/api/checkout', { tierId, isSubscription: false }),
        400,
        'tierId',
      );
      await refused(() => user.post('/api/subscription/change', { tierId }), 400, 'tierId');
    }
    const body = await refused(
      () =>
        admin.post(`/api/admin/users/${userId}/credits`, {
          amount: 10_000_000,
          reason: 'Too much',
        }),
      400,
      'amount',
    );
    expect(body.fields).toContainEqual({
      field: 'amount',
      message: 'must be between -1,000,000 and 1,000,000',
    });
  });

  it('signs in with a padded e-mail (trimmed, as documented)', async () => {
    const email = `padded-${randomUUID()}@example.com`;
    const answer = await server.client().post('/api/auth/dev-login', { email: `  ${email}\t` });
    expect(answer.status).toBe(200);
    expect(answer.body.email).toBe(email);
  });

  it('refuses a body nested 50,000 deep with an Idempotency-Key: 400 before anything recurses', async () => {
    for (const depth of [50_000, 65]) {
      const deep = `{"message":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const body = await refused(
        () => user.post('/api/feedback', deep, { 'idempotency-key': randomUUID() }),
        400,
        '(body)',
      );
      expect(body.fields[0].message).toBe('must not be nested deeper than 64 levels');
    }
    // 64 levels are parsed and judged by the route's schema as usual.
    const sane = `{"message":${'['.repeat(63)}${']'.repeat(63)}}`;
    await refused(() => user.post('/api/feedback', sane), 400, 'message');
  });

  describe('the Stripe webhook', () => {
    const deliver = (event: unknown) => {
      const payload = JSON.stringify(event);
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      return server
        .client()
        .request('POST', '/api/webhooks/stripe', payload, { 'stripe-signature': header });
    };
    const eventId = () => `evt_${randomUUID().replaceAll('-', '')}`;
    const charge = (overrides: Record<string, unknown>) => ({
      id: `ch_test_${randomUUID().replaceAll('-', '')}`,
      object: 'charge',
      metadata: { userId, billingType: 'one_time' },
      payment_intent: `pi_test_${randomUUID().replaceAll('-', '')}`,
      amount: 999,
      amount_refunded: 999,
      currency: 'usd',
      ...overrides,
    });

    it('refuses an envelope without id, data or object with 400 naming the field, recording nothing', async () => {
      const object = charge({});
      await refused(() => deliver({ type: 'charge.refunded', data: { object } }), 400, 'id');
      await refused(
        () => deliver({ id: 'evt_\u0000', type: 'charge.refunded', data: { object } }),
        400,
        'id',
      );
      await refused(() => deliver({ id: eventId(), type: 'charge.refunded' }), 400, 'data');
      await refused(
        () => deliver({ id: eventId(), type: 'charge.refunded', data: { object: null } }),
        400,
        'data.object',
      );
      await refused(() => deliver({ id: eventId(), data: { object } }), 400, 'type');
      await refused(
        () =>
          deliver({ id: eventId(), type: 'charge.refunded', data: { object: charge({ id: 5 }) } }),
        400,
        'data.object.id',
      );
      // Nothing was applied under `stripe-undefined`.
      expect((await server.deps.ledger.load('stripe', 'undefined' as string)).state.processed).toBe(
        false,
      );
    });

    it('records absurd numbers as refused, moving no credit', async () => {
      const balance = async () => (await server.deps.ledger.load('credits', userId)).state.balance;
      const start = await balance();
      for (const [field, overrides] of [
        ['amount', { amount: 2 ** 60 }],
        ['amount', { amount: 2 ** 31 }],
        ['amount_refunded', { amount_refunded: -1 }],
        ['amount_refunded', { amount_refunded: 'NaN' }],
        ['amount_refunded', { amount_refunded: 1000 }],
        ['metadata.userId', { metadata: { userId: 'x\u0000', billingType: 'one_time' } }],
      ] as const) {
        const answer = await deliver({
          id: eventId(),
          type: 'charge.refunded',
          data: { object: charge(overrides) },
        });
        expect(answer.status).toBe(200);
        expect(answer.body.outcome).toBe(`refused: invalid data.object.${field}`);
      }
      const invoice = {
        id: `in_test_${randomUUID().replaceAll('-', '')}`,
        parent: {
          subscription_details: {
            subscription: 'sub_test_1',
            metadata: { userId, tierId: '2147483648' },
          },
        },
        period_start: 1e308,
      };
      const answer = await deliver({
        id: eventId(),
        type: 'invoice.paid',
        data: { object: invoice },
      });
      expect(answer.body.outcome).toMatch(/^refused: invalid data\.object\./);
      expect(await balance()).toBe(start);
    });
  });
});
