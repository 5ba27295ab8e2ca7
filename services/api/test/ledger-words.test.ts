/**
 * The ledger over HTTP carries each entry's kind and parameters, named by the one label module
 * of `@astra/contracts`: a promotional grant that names its campaign reaches the customer's and
 * the admin's ledgers as promotional credits of that campaign, never as a credit pack purchase.
 */
import { type LedgerEntryView, ledgerEntryLabel } from '@astra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/ledger/ledger.ts';
import { caughtUp, startTestServer, type TestServer } from './support.ts';

describe('ledger entry words over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('shows a campaign grant as promotional credits of its campaign, to the customer and staff', async () => {
    const member = server.client();
    const me = await member.signIn('campaign@example.com', 'Rosa Campo');
    await server.deps.ledger.handle(
      'credits',
      me.id,
      {
        type: 'GrantCredits',
        grantId: 'promo-spring-2026',
        kind: 'promotional',
        amount: 25,
        reason: 'Spring offer',
        tierId: null,
        reference: { campaignId: 'spring-2026' },
      },
      systemContext(),
    );
    await caughtUp(server);

    const admin = server.client();
    await admin.signInAsAdmin();
    const ledgers = {
      customer: (await member.get('/api/me/ledger')).body.items as LedgerEntryView[],
      staff: (await admin.get(`/api/admin/users/${me.id}/ledger`)).body.items as LedgerEntryView[],
    };
    for (const [audience, items] of Object.entries(ledgers) as [
      keyof typeof ledgers,
      LedgerEntryView[],
    ][]) {
      const grant = items.find((entry) => entry.type === 'CreditsGranted');
      expect(grant, audience).toMatchObject({
        amount: 25,
        kind: 'grant',
        reason: 'Spring offer',
        details: { grantKind: 'promotional', campaign: 'spring-2026', note: 'Spring offer' },
      });
      expect(ledgerEntryLabel(grant!, audience)).toBe('Promotional credits: spring-2026');
      expect(items.map((entry) => ledgerEntryLabel(entry, audience))).not.toContain(
        'Credit pack purchase',
      );
    }
  });
});
