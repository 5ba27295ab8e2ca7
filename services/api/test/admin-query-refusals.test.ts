import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from './support.ts';

/** A staff query that cannot mean what was asked is a 400 naming the field, never an answer. */
describe('admin queries refuse what they cannot mean', () => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startTestServer();
    admin = server.client();
    await admin.signInAsAdmin();
  });
  afterAll(() => server?.close());

  it('an unknown event type in the ledger explorer is a 400, not an empty page', async () => {
    const typo = await admin.get('/api/admin/ledger?type=CreditsSpent,Nope');
    expect(typo.status).toBe(400);
    expect(typo.body.error).toBe('invalid_request');
    expect(typo.body.fields).toEqual([
      expect.objectContaining({
        field: 'type.1',
        message: expect.stringContaining('must be credit event types'),
      }),
    ]);
    expect(typo.body.fields[0].message).toContain('"Nope"');
    // Known types still filter.
    expect((await admin.get('/api/admin/ledger?type=CreditsSpent,SpendRefunded')).status).toBe(200);
  });

  it('a control character in the user search is named as such', async () => {
    expect(await admin.get('/api/admin/users?search=%00')).toMatchObject({
      status: 400,
      body: { fields: [{ field: 'search', message: 'must not contain control characters' }] },
    });
    expect((await admin.get('/api/admin/users?search=')).status).toBe(200);
  });

  it('a month before 1970 (a two-digit year) is a 400, not 1926 under the asked label', async () => {
    for (const month of ['0026-11', '0000-01', '0099-12', '1969-12']) {
      for (const format of ['json', 'csv']) {
        const answer = await admin.get(
          `/api/admin/reports/monthly?month=${month}&format=${format}`,
        );
        expect(answer.status, `${month} ${format}`).toBe(400);
        expect(answer.body.fields).toEqual([
          { field: 'month', message: 'must be a month, YYYY-MM, from 1970-01' },
        ]);
      }
    }
    const november = await admin.get('/api/admin/reports/monthly?month=2026-11');
    expect(november.status).toBe(200);
    expect(november.body.from).toBe('2026-11-01T00:00:00.000Z');
  });
});
