import type { MailContent, MailKind } from './content.ts';

const samples: { [K in MailKind]: Extract<MailContent, { kind: K }> } = {
  purchase_receipt: {
    kind: 'purchase_receipt',
    packName: 'Explorer credit pack',
    credits: 50,
    amount: { amountMinor: 1799, currency: 'usd' },
    paidAt: '2026-11-28T10:15:00.000Z',
    orderReference: 'cs_test_a1B2c3D4',
  },
  subscription_receipt: {
    kind: 'subscription_receipt',
    planName: 'Seeker',
    creditsPerMonth: 60,
    amount: { amountMinor: 999, currency: 'usd' },
    paidAt: '2026-11-28T10:15:00.000Z',
    orderReference: 'in_test_9Z8y7X',
    nextRenewalDate: '2026-12-28',
  },
  subscription_renewed: {
    kind: 'subscription_renewed',
    planName: 'Seeker',
    credits: 60,
    rolledOver: 42,
    forfeited: 8,
    amount: { amountMinor: 999, currency: 'usd' },
    renewedOn: '2026-12-28',
    nextRenewalDate: '2027-01-28',
    orderReference: 'in_test_5W4v3U',
  },
  payment_failed: {
    kind: 'payment_failed',
    planName: 'Seeker',
    amount: { amountMinor: 999, currency: 'usd' },
    nextAttemptAt: '2026-12-31T10:00:00.000Z',
    invoiceReference: 'in_test_2T1s0R',
  },
  subscription_cancelled: {
    kind: 'subscription_cancelled',
    planName: 'Seeker',
    accessUntil: '2026-12-28',
  },
  refund_issued: {
    kind: 'refund_issued',
    amount: { amountMinor: 900, currency: 'eur' },
    creditsTakenBack: 20,
    shortfall: 5,
    refundedOn: '2026-11-30T09:00:00.000Z',
    orderReference: 'pi_test_Q9p8O7',
  },
  account_deleted: { kind: 'account_deleted', deletedOn: '2026-11-28', byAdmin: false },
};

/** One sample of every message (the record's type makes a missing kind a compile error). */
export const sampleMailContents: MailContent[] = Object.values(samples);
