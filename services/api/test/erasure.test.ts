import { ERASED_EMAIL } from '@astra/contracts';
import type { Keyring } from '@astra/event-store';
import { streams } from '@astra/ledger';
import { READ_SCHEMA, readModels, rebuildReadModels, verifyLedger } from '@astra/projections';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/projections/test/csv.ts';
import { systemContext } from '../src/ledger/ledger.ts';
import { deleteAccount, finishErasures } from '../src/modules/accounts/deletion.ts';
import { APP_SCHEMA } from '../src/storage/appDatabase.ts';
import { type Client, caughtUp, startTestServer, type TestServer, until } from './support.ts';

/** A real 1×1 PNG. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Erasure (issue "Forget on request"): deleting an account, by its owner or an admin, destroys
 * the person's data key and leaves nothing personal readable in the database, while the books
 * keep every money line under the pseudonymous user id.
 */
describe('erasure of a deleted account', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startTestServer();
    admin = server.client();
    await admin.signInAsAdmin();
  });
  afterAll(() => server?.close());

  /** A person with a profile, a picture, a paid pack, a reading and a feedback message. */
  const person = async (tag: string) => {
    const secrets = {
      email: `bruno-${tag}@example.com`,
      lastName: `Secretkeeper${tag}`,
      birthCity: `Rosenheimerdorf${tag}`,
      question: `Will my secret affair with Bruno ${tag} stay hidden?`,
      feedback: `Bruno ${tag} told me a secret about your app`,
    };
    const client = server.client();
    const me = await client.signIn(secrets.email, `Berta ${secrets.lastName}`);
    const profile = await client.patch('/api/me', {
      birthDate: '1985-03-04',
      birthTime: '06:30',
      birthCity: secrets.birthCity,
      birthCountry: 'Germany',
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const avatar = await client.put('/api/me/avatar', tinyPng);
    expect(avatar.status).toBe(200);
    const pack = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
    expect((await client.post(`/api/checkout/local/${pack.body.sessionId}/pay`)).status).toBe(200);
    const reading = await client.post('/api/readings/tarot-traditional', {
      firstName: 'Berta',
      question: secrets.question,
    });
    expect(reading.status, JSON.stringify(reading.body)).toBe(201);
    expect((await client.post('/api/feedback', { message: secrets.feedback })).status).toBe(201);
    // An answer kept for an idempotent retry, holding the reading's question.
    await client.post(
      '/api/readings/tarot-traditional',
      { firstName: 'Berta', question: secrets.question },
      { 'idempotency-key': `erasure-${tag}` },
    );
    await caughtUp(server);
    return {
      client,
      id: me.id,
      secrets,
      avatarUrl: avatar.body.avatarUrl as string,
      readingId: reading.body.readingId as string,
    };
  };

  /** Every row of the tables named, as text (a logical dump of them). */
  const dumpOf = async (tables: readonly string[]) => {
    const texts: string[] = [];
    for (const table of tables) {
      const [schema, name] = table.split('.') as [string, string];
      const { rows } = await sql<{ row: string }>`
        SELECT t::text AS row FROM ${sql.table(`${schema}.${name}`)} AS t`.execute(server.deps.db);
      texts.push(...rows.map((r) => r.row));
    }
    return texts.join('\n');
  };

  /** Every table of the read models and the app, the log, the snapshots and the keys. */
  const everyTable = async () => {
    const { rows } = await sql<{ name: string }>`
      SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN (${READ_SCHEMA}, ${APP_SCHEMA}, 'public') AND table_type = 'BASE TABLE'
        AND table_name NOT LIKE 'kysely_%'`.execute(server.deps.db);
    return rows.map((r) => r.name);
  };

  const expectNothingPersonalOf = async (secrets: Record<string, string>) => {
    const dump = (await dumpOf(await everyTable())).toLowerCase();
    for (const [what, value] of Object.entries(secrets)) {
      expect(dump.includes(value.toLowerCase()), `${what} still in the database`).toBe(false);
      expect(dump.includes(JSON.stringify(value).toLowerCase()), what).toBe(false);
    }
  };

  const profileOf = (id: string) =>
    readModels(server.deps.db)
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const exportsRecorded = async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events WHERE type = 'AdminDataExported'`.execute(
      server.deps.db,
    );
    return rows[0]!.n;
  };
  const exportRows = async () => {
    const before = await exportsRecorded();
    const response = await fetch(`${server.url}/api/admin/exports/ledger?format=csv`, {
      headers: { cookie: admin.cookie! },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    // The download is recorded once its body has ended, after the client has it all: wait for
    // that event, so that later steps (a rebuild compared with the live tables) see it.
    await until('the export recorded', async () => (await exportsRecorded()) > before);
    const [header, ...records] = parseCsv(text);
    return records.map((record) => Object.fromEntries(header!.map((h, i) => [h, record[i]!])));
  };

  const expectErased = async (
    subject: Awaited<ReturnType<typeof person>>,
    reason: string,
  ): Promise<void> => {
    const { id, secrets } = subject;
    await caughtUp(server);
    // The key is destroyed, and the user's stream records the erasure last.
    expect(await server.deps.keyring.isDestroyed(id)).toBe(true);
    const { rows: keys } = await sql<{ wrapped: string | null; destroyed_at: Date | null }>`
      SELECT wrapped, destroyed_at FROM data_keys WHERE subject = ${id}`.execute(server.deps.db);
    expect(keys).toEqual([{ wrapped: null, destroyed_at: expect.any(Date) }]);
    const user = (await server.deps.ledger.load('user', id)).state;
    expect(user).toMatchObject({ status: 'deleted', erased: true, email: null });
    const { rows: last } = await sql<{ type: string; data: { reason: string } }>`
      SELECT type, data FROM events WHERE stream_name = ${streams.user(id)}
      ORDER BY revision DESC LIMIT 1`.execute(server.deps.db);
    expect(last[0]).toMatchObject({ type: 'PersonalDataErased', data: { reason } });

    // The raw log (and every other table) holds none of it, in any spelling.
    // The account-deleted message went out to the address on record, and was erased after.
    const farewell = await until('the account-deleted message to go out', async () => {
      const { rows } = await sql<{ status: string; recipient: string | null; payload: unknown }>`
        SELECT status, recipient, payload FROM app.outbox
        WHERE user_id = ${id} AND kind = 'account_deleted'`.execute(server.deps.db);
      return rows[0]?.status === 'sent' ? rows : null;
    });
    expect(farewell).toEqual([{ status: 'sent', recipient: null, payload: null }]);
    await expectNothingPersonalOf(secrets);

    // The read models keep ids, status, figures and dates.
    const profile = await profileOf(id);
    expect(profile).toMatchObject({
      status: 'deleted',
      email: null,
      full_name: null,
      first_name: null,
      last_name: null,
      avatar_url: null,
      birth_date: null,
      birth_time: null,
      birth_city: null,
      birth_country: null,
      birth_place: null,
      remaining_credits: 0,
    });
    expect(profile.erased_at).toBeInstanceOf(Date);
    expect(profile.credits).toBeGreaterThan(0);
    const readings = await readModels(server.deps.db)
      .selectFrom('usage_logs')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    expect(readings.length).toBeGreaterThan(0);
    for (const reading of readings) {
      expect(reading).toMatchObject({
        app_id: expect.any(Number),
        question: null,
        first_name: null,
        input_data: {},
        reading_result_content: {},
        credits_charged: 4,
        status: 'completed',
      });
    }
    const feedback = await readModels(server.deps.db)
      .selectFrom('feedback')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    expect(feedback.map((f) => f.message)).toEqual(['']);

    // The API's own tables: no session, picture, idempotent answer or snapshot of theirs.
    expect((await fetch(`${server.url}${subject.avatarUrl}`)).status).toBe(404);
    const app = server.deps.appDb;
    expect(
      await app.selectFrom('sessions').select('id_hash').where('user_id', '=', id).execute(),
    ).toEqual([]);
    expect(
      await app
        .selectFrom('idempotency_keys')
        .select('key')
        .where('key', 'like', `${id}:%`)
        .execute(),
    ).toEqual([]);
    const { rows: snapshots } = await sql`
      SELECT 1 FROM snapshots WHERE stream_name = ${streams.credits(id)}`.execute(server.deps.db);
    expect(snapshots).toEqual([]);

    // The admin sees an erased user, with their money lines.
    const view = await admin.get(`/api/admin/users/${id}`);
    expect(view.body).toMatchObject({ id, email: null, displayName: 'Erased user' });
    const audit = await admin.get(`/api/admin/users/${id}/ledger`);
    expect(audit.body.user).toEqual({ id, email: null, fullName: 'Erased user' });
    const explorer = await admin.get(`/api/admin/ledger?userId=${id}&limit=100`);
    expect(explorer.status, JSON.stringify(explorer.body)).toBe(200);
    expect(explorer.body.items.length).toBeGreaterThan(0);
    for (const item of explorer.body.items) expect(item.email).toBe(ERASED_EMAIL);
    expect(explorer.body.items.some((item: { money: unknown }) => item.money !== null)).toBe(true);
    const exported = (await exportRows()).filter((row) => row.user_id === id);
    expect(exported.length).toBeGreaterThan(0);
    for (const row of exported) expect(row.email).toBe(ERASED_EMAIL);
    expect(exported.some((row) => row.money_minor !== '')).toBe(true);
    expect((await verifyLedger(server.deps.ledger.store, server.deps.db)).differences).toEqual([]);
  };

  it('DELETE /api/me erases the person: key destroyed, nothing personal in any table, the books kept', async () => {
    const subject = await person('self');
    const deleted = await subject.client.delete('/api/me');
    expect(deleted).toMatchObject({ status: 200, body: { ok: true } });
    await expectErased(subject, 'user_requested');

    // Signing in again with the address: a new user, no free credits, none of the old data.
    const again = server.client();
    const reborn = await again.signIn(subject.secrets.email);
    expect(reborn.id).not.toBe(subject.id);
    expect(reborn).toMatchObject({
      remainingCredits: 0,
      lastName: null,
      birthDate: null,
      birthCity: null,
      avatarUrl: null,
    });
    expect((await again.get('/api/library')).body.items).toEqual([]);
    expect((await again.get(`/api/readings/${subject.readingId}`)).status).toBe(404);
    const ledger = (await again.get('/api/me/ledger')).body;
    expect(ledger.items.map((item: { type: string }) => item.type)).toEqual([
      'CreditAccountOpened',
    ]);
  });

  it('the admin delete erases the same way', async () => {
    const subject = await person('byadmin');
    const deleted = await admin.delete(`/api/admin/users/${subject.id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.user).toMatchObject({ id: subject.id, email: null, status: 'deleted' });
    expect((await subject.client.get('/api/me')).status).toBe(401);
    await expectErased(subject, 'deleted_by_admin');
  });

  it('a deletion cut off before the erasure is finished by the sweep, or by a retry; the erasure changes no money figure', async () => {
    const crashing = {
      ...server.deps,
      keyring: {
        destroy: async () => {
          throw new Error('the process died here');
        },
      } as unknown as Keyring,
    };
    const swept = await person('swept');
    const retried = await person('retried');
    for (const { id } of [swept, retried]) {
      await expect(deleteAccount(crashing, id, systemContext())).rejects.toThrow(/died/);
      expect((await server.deps.ledger.load('user', id)).state).toMatchObject({
        status: 'deleted',
        erased: false,
      });
      expect(await server.deps.keyring.isDestroyed(id)).toBe(false);
    }
    await caughtUp(server);
    const month = new Date().toISOString().slice(0, 7);
    const report = async () => {
      const answer = await admin.get(`/api/admin/reports/monthly?month=${month}`);
      expect(answer.status).toBe(200);
      const { credits, money, flags } = answer.body;
      return { credits, money, flags };
    };
    const reportBefore = await report();
    const exportBefore = await exportRows();
    expect(exportBefore.find((row) => row.user_id === swept.id)?.email).toBe(swept.secrets.email);

    // The retry runs the deletion again: each step is idempotent, the erasure happens.
    await deleteAccount(server.deps, retried.id, systemContext());
    // The sweep finds the other one from the read model and its stream.
    await caughtUp(server);
    expect(await finishErasures(server.deps, server.deps.logger)).toBe(1);
    expect(await finishErasures(server.deps, server.deps.logger)).toBe(0);
    await expectErased(retried, 'user_requested');
    await expectErased(swept, 'user_requested');

    // Nothing moved but the e-mails: every money figure, row for row, and the month report.
    expect(await report()).toEqual(reportBefore);
    const erasedIds = new Set([swept.id, retried.id]);
    const exportAfter = await exportRows();
    expect(exportAfter.slice(0, exportBefore.length)).toEqual(
      exportBefore.map((row) =>
        erasedIds.has(row.user_id!) ? { ...row, email: ERASED_EMAIL } : row,
      ),
    );
  });

  it('a rebuild from the log gives the erased rows the projector made', async () => {
    await caughtUp(server);
    const tables = ['profiles', 'usage_logs', 'feedback'].map((t) => `${READ_SCHEMA}.${t}`);
    const live = (await dumpOf(tables)).split('\n').sort();
    await rebuildReadModels(server.deps.ledger.store, server.deps.db);
    await caughtUp(server);
    expect((await dumpOf(tables)).split('\n').sort()).toEqual(live);
  });
});
