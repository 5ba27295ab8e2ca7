/** Credit-stream histories and commands shared by the credit decider's specs. */
import type { CreditEvent } from '@astra/contracts';
import { type CreditCommand, creditAccountDecider, type Tier } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

export const given = deciderSpecification(creditAccountDecider);

export const opened: CreditEvent = { type: 'CreditAccountOpened', data: { userId: 'u1' } };
export const free = (amount = 10): CreditEvent => ({
  type: 'FreeCreditsGranted',
  data: { amount },
});
export const granted = (amount: number, grantId = `g-${amount}`): CreditEvent => ({
  type: 'CreditsGranted',
  data: { grantId, kind: 'purchase', amount, reason: 'Explorer pack', tierId: 2, reference: null },
});
export const spent = (amount: number, spendId = `s-${amount}`): CreditEvent => ({
  type: 'CreditsSpent',
  data: {
    spendId,
    amount,
    purpose: 'reading',
    description: 'Tarot Traditional reading',
    appId: 3,
    readingId: 'r1',
  },
});
export const spend = (amount: number, spendId = `s-${amount}`): CreditCommand => ({
  type: 'SpendCredits',
  spendId,
  amount,
  purpose: 'reading',
  description: 'Tarot Traditional reading',
  appId: 3,
  readingId: 'r1',
});

export const starter: Tier = { tierId: 1, tierName: 'Starter', creditsPerMonth: 60 };
export const activated = (nextRenewalDate = '2026-11-01', tier: Tier = starter): CreditEvent => ({
  type: 'SubscriptionActivated',
  data: { ...tier, subscriptionId: 'sub_1', nextRenewalDate },
});
export const now = new Date('2026-11-21T10:00:00Z');
export type GrantCommand = Extract<CreditCommand, { type: 'GrantCredits' }>;
/** A month of Starter granted to `sub_1`. */
export const month = (period: string, amount = 60): CreditEvent => ({
  type: 'MonthlyCreditsGranted',
  data: {
    period,
    tierId: 1,
    tierName: 'Starter',
    amount,
    previousBalance: 0,
    rolledOver: 0,
    nextRenewalDate: '2026-11-01',
    grantedOn: `${period}-01`,
    trigger: 'renewal',
    reference: { subscriptionId: 'sub_1' },
  },
});
