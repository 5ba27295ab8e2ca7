import { describe, expect, it } from 'vitest';
import {
  type CreditEvent,
  ledgerEntryCodeOf,
  ledgerEntryDescription,
  ledgerEntryDetail,
  ledgerEntryLabel,
} from '../src/index.ts';

/** Every credit event type has its kind and names by the type of `CREDIT_EVENT_LABELS` (tsc). */
const named = (event: CreditEvent, audience?: 'customer' | 'staff') =>
  ledgerEntryLabel(ledgerEntryCodeOf(event), audience);

const grant = (kind: 'purchase' | 'promotional', reference: Record<string, string> | null) =>
  ({
    type: 'CreditsGranted',
    data: { grantId: 'g1', kind, amount: 10, reason: 'Why', tierId: null, reference },
  }) as const;

const month = (reference: Record<string, string> | null) =>
  ({
    type: 'MonthlyCreditsGranted',
    data: {
      period: '2026-12',
      tierId: 1,
      tierName: 'Starter',
      amount: 60,
      previousBalance: 0,
      rolledOver: 4,
      nextRenewalDate: '2027-01-01',
      grantedOn: '2026-12-01',
      trigger: reference ? 'renewal' : 'scheduler',
      reference,
    },
  }) as const;

describe('the ledger’s words', () => {
  it('names a grant by its kind, whatever its reference holds', () => {
    expect(named(grant('purchase', { checkoutSessionId: 'cs_1' }))).toBe('Credit pack purchase');
    expect(named(grant('promotional', null))).toBe('Promotional credits');
    expect(named(grant('promotional', { campaignId: 'spring-2026' }))).toBe(
      'Promotional credits: spring-2026',
    );
    // A purchase's reference never makes it a campaign.
    expect(named(grant('purchase', { campaignId: 'x', checkoutSessionId: 'cs_1' }))).toBe(
      'Credit pack purchase',
    );
  });

  it('names a month paid by an invoice as a payment, one granted without as plan credits', () => {
    expect(named(month({ invoiceId: 'in_1' }))).toBe('Monthly plan payment');
    expect(named(month(null))).toBe('Monthly plan credits');
    expect(ledgerEntryDescription(ledgerEntryCodeOf(month(null)))).toBe(
      'Starter monthly credits for 2026-12 (4 subscription credits rolled over)',
    );
  });

  it('names a voice reactivation as such, without repeating it underneath', () => {
    const spend = {
      type: 'CreditsSpent',
      data: {
        spendId: 's1',
        amount: 2,
        purpose: 'voice_reactivation',
        description: 'Voice guide reactivated',
        appId: 3,
        readingId: 'r1',
      },
    } as const;
    expect(named(spend)).toBe('Voice guide reactivated');
    expect(ledgerEntryDetail(ledgerEntryCodeOf(spend))).toBeNull();
  });

  it('keeps an admin’s words as given, and speaks to staff as staff', () => {
    const adjusted = {
      type: 'CreditsAdjusted',
      data: { amount: -3, reason: 'Duplicate purchase correction', adminId: 'a1' },
    } as const;
    expect(named(adjusted)).toBe('Adjusted by support');
    expect(named(adjusted, 'staff')).toBe('Admin adjustment');
    expect(ledgerEntryDetail(ledgerEntryCodeOf(adjusted))).toBe('Duplicate purchase correction');
  });

  it('names an entry of a type it does not know by its type', () => {
    expect(ledgerEntryLabel({ type: 'CreditsTeleported', details: {} })).toBe('CreditsTeleported');
  });
});
