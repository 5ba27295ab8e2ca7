import { randomUUID } from 'node:crypto';
import { type PersonalDataExport, personalDataExportSchema } from '@astra/contracts';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, caughtUp, startTestServer, type TestServer } from './support.ts';

/**
 * `GET /api/me/export`: the right of access. Owner only, a download of everything held about
 * the signed-in user (profile, credit events with money, payments, readings with inputs, texts
 * and voice sessions, feedback), and quick for a user with many readings.
 */

const question = 'Will my secret affair with Bruno stay hidden?';
const birth = {
  firstName: 'Clara',
  lastName: 'Schuster',
  birthDate: '1988-04-02',
  birthTime: '06:45',
  birthCity: 'Zürich',
  birthCountry: 'CH',
};

const exportOf = async (client: Client) => {
  const answer = await client.get<PersonalDataExport>('/api/me/export');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer;
};

// On both stores: PostgreSQL (where the machine has it) and PGlite.
for (const storage of [undefined, 'pglite'] as const)
  describe(`GET /api/me/export (${storage ?? 'PostgreSQL where present'})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({}, storage);
    });
    afterAll(async () => {
      await server?.close();
    });

    const signedIn = async (prefix: string, fullName = 'Clara Schuster') => {
      const client = server.client();
      const email = `${prefix}-${randomUUID()}@example.com`;
      const me = await client.signIn(email, fullName);
      return { client, email, id: me.id };
    };

    it('answers 401 signed out', async () => {
      const answer = await server.client().get('/api/me/export');
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('unauthenticated');
    });

    it('downloads everything held about the signed-in user, and nothing of anyone else', async () => {
      const { client, email, id } = await signedIn('export');
      expect((await client.patch('/api/me', birth)).status).toBe(200);
      const pack = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
      expect((await client.post(`/api/checkout/local/${pack.body.sessionId}/pay`)).status).toBe(
        200,
      );
      const reading = await client.post('/api/readings/tarot-traditional', {
        firstName: 'Clara',
        question,
      });
      expect(reading.status).toBe(201);
      const { readingId } = reading.body;
      const voice = await client.post(`/api/readings/${readingId}/voice/sessions`, {});
      expect(voice.status, JSON.stringify(voice.body)).toBe(201);
      const sessionId = voice.body.session.sessionId;
      const ended = await client.post(
        `/api/readings/${readingId}/voice/sessions/${sessionId}/end`,
        {
          reason: 'ended_early',
        },
      );
      expect(ended.status).toBe(200);
      expect(
        (await client.post('/api/feedback', { message: 'Clara loves the cards' })).status,
      ).toBe(201);
      // Someone else's reading and feedback, which must not appear.
      const other = await signedIn('other', 'Otto Other');
      await other.client.post('/api/readings/tarot-traditional', {
        firstName: 'Otto',
        question: 'Is Otto’s question private?',
      });
      await other.client.post('/api/feedback', { message: 'Otto’s feedback' });

      const answer = await exportOf(client);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('content-disposition')).toMatch(
        /^attachment; filename="astra-data-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(answer.headers.get('cache-control')).toBe('no-store');
      // Written as it is read: chunked, no length known beforehand.
      expect(answer.headers.get('transfer-encoding')).toBe('chunked');
      const data = personalDataExportSchema.parse(answer.body);

      // The profile, birth details and birthplace included.
      expect(data.profile).toMatchObject({ id, email, fullName: 'Clara Schuster', ...birth });
      expect(data.profile.birthPlace).toMatchObject({ name: 'Zürich', country: 'CH' });

      // Every credit event of their stream, with the balance after it and its money.
      const me = (await client.get('/api/me')).body;
      expect(data.creditEvents.map((e) => e.type)).toEqual(
        expect.arrayContaining(['FreeCreditsGranted', 'CreditsGranted', 'CreditsSpent']),
      );
      expect(data.creditEvents.every((e) => e.userId === id)).toBe(true);
      expect(data.creditEvents.at(-1)!.balanceAfter).toBe(me.remainingCredits);
      const purchase = data.creditEvents.find((e) => e.type === 'CreditsGranted')!;
      expect(purchase.money).toEqual({ currency: expect.any(String), minor: expect.any(Number) });
      expect(purchase.money!.minor).toBeGreaterThan(0);

      // The payment, with Stripe's (here the local checkout's) ids.
      expect(data.payments).toEqual([
        expect.objectContaining({
          kind: 'payment',
          eventType: 'CreditsGranted',
          amountMinor: purchase.money!.minor,
          currency: purchase.money!.currency,
          checkoutSessionId: pack.body.sessionId,
        }),
      ]);

      // The reading with its inputs, question, text and voice session.
      expect(data.readings).toHaveLength(1);
      const exported = data.readings[0]!;
      expect(exported).toMatchObject({
        readingId,
        appName: 'Tarot Traditional',
        question,
        firstName: 'Clara',
        status: 'completed',
        input: { firstName: 'Clara', question },
      });
      expect(Object.keys(exported.result).length).toBeGreaterThan(0);
      expect(exported.voiceSessions).toEqual([
        expect.objectContaining({ sessionId, reactivation: false, endReason: 'ended_early' }),
      ]);

      expect(data.feedback.map((f) => f.message)).toEqual(['Clara loves the cards']);
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('Otto');
      expect(text).not.toContain(other.email);
    });

    it('counts a refund among the payments', async () => {
      const { client, id } = await signedIn('refund');
      await server.deps.ledger.store.append(
        streams.credits(id),
        [
          {
            type: 'PaymentRefunded',
            data: {
              paymentIntentId: 'pi_refunded',
              chargeId: 'ch_refunded',
              amountMinor: 250,
              refundedMinor: 250,
              currency: 'eur',
            },
            metadata: { occurredAt: new Date().toISOString() },
          },
        ],
        { expected: 'any' },
      );
      const { body } = await exportOf(client);
      expect(body.payments).toEqual([
        expect.objectContaining({
          kind: 'refund',
          amountMinor: 250,
          currency: 'eur',
          paymentIntentId: 'pi_refunded',
          chargeId: 'ch_refunded',
        }),
      ]);
    });

    it('gives an admin their own data only', async () => {
      const { id } = await signedIn('member');
      const admin = server.client();
      const adminMe = await admin.signInAsAdmin();
      const { body } = await exportOf(admin);
      expect(body.profile.id).toBe(adminMe.id);
      expect(body.creditEvents.every((e) => e.userId === adminMe.id)).toBe(true);
      expect(JSON.stringify(body)).not.toContain(id);
    });

    it('is not reachable once the account is deleted: its session is gone', async () => {
      const { client, email, id } = await signedIn('deleted');
      await client.post('/api/readings/tarot-traditional', { firstName: 'Clara', question });
      const stolenCookie = client.cookie;
      expect((await client.delete('/api/me')).status).toBe(200);
      const again = server.client();
      again.cookie = stolenCookie;
      expect((await again.get('/api/me/export')).status).toBe(401);
      // Signed up again with the same address: a new person, none of the old data.
      const fresh = server.client();
      const freshMe = await fresh.signIn(email);
      expect(freshMe.id).not.toBe(id);
      const { body } = await exportOf(fresh);
      expect(body.readings).toEqual([]);
      expect(JSON.stringify(body)).not.toContain(question);
    });

    it('gives a user with 1,000 readings all of them at once', async () => {
      const { client, id } = await signedIn('many');
      const store = server.deps.ledger.store;
      const count = 1_000;
      const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      const readingIds = Array.from({ length: count }, () => randomUUID());
      // Cheaply: the reading streams' events appended as the saga would, and the spends in one go.
      await store.append(
        streams.credits(id),
        [
          {
            type: 'CreditsGranted',
            data: {
              grantId: `seed:${id}`,
              kind: 'promotional',
              amount: count,
              reason: 'Seed',
              tierId: null,
              reference: null,
            },
            metadata: { occurredAt: at(0) },
          },
          ...readingIds.map((readingId, i) => ({
            type: 'CreditsSpent',
            data: {
              spendId: `spend-${readingId}`,
              amount: 1,
              purpose: 'reading',
              description: 'Tarot Traditional reading',
              appId: 3,
              readingId,
            },
            metadata: { occurredAt: at(i + 1) },
          })),
        ],
        { expected: 'any' },
      );
      const appendReading = (readingId: string, i: number) =>
        store.append(
          streams.reading(readingId),
          [
            {
              type: 'ReadingRequested',
              data: {
                readingId,
                userId: id,
                appId: 3,
                appName: 'Tarot Traditional',
                input: { firstName: 'Clara', question: `Question ${i}?` },
                firstName: 'Clara',
                question: `Question ${i}?`,
                creditsCharged: 1,
                spendId: `spend-${readingId}`,
              },
              metadata: { occurredAt: at(i + 1), subject: id },
            },
            {
              type: 'ReadingGenerated',
              data: { result: { readingText: `The cards answer ${i}.` }, writer: 'offline' },
              metadata: { occurredAt: at(i + 1), subject: id },
            },
          ],
          { expected: 'no_stream' },
        );
      for (let i = 0; i < count; i += 50)
        await Promise.all(readingIds.slice(i, i + 50).map((r, j) => appendReading(r, i + j)));
      await caughtUp(server, 60_000);

      const started = performance.now();
      const { body } = await exportOf(client);
      const took = performance.now() - started;
      console.info(
        `export of ${count} readings (${storage ?? 'PostgreSQL'}): ${took.toFixed(0)} ms`,
      );
      expect(body.readings).toHaveLength(count);
      expect(body.readings.map((r) => r.question)).toEqual(
        readingIds.map((_, i) => `Question ${i}?`),
      );
      expect(body.readings.at(-1)!.result).toEqual({
        readingText: `The cards answer ${count - 1}.`,
      });
      expect(body.creditEvents.filter((e) => e.type === 'CreditsSpent')).toHaveLength(count);
      expect(body.creditEvents.at(-1)!.balanceAfter).toBe(10);
    });
  });
