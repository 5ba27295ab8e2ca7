import type { LedgerEntryView } from '@astra/contracts';

export type LedgerKind =
  | 'grant'
  | 'spend'
  | 'refund'
  | 'adjustment'
  | 'forfeit'
  | 'account'
  | 'subscription'
  | 'other';

/** Event types of the credit stream (docs/events.md), grouped the way people think of them. */
const KIND_BY_TYPE: Record<string, LedgerKind> = {
  FreeCreditsGranted: 'grant',
  CreditsGranted: 'grant',
  MonthlyCreditsGranted: 'grant',
  CreditsSpent: 'spend',
  SpendRefunded: 'refund',
  CreditsAdjusted: 'adjustment',
  RolloverForfeited: 'forfeit',
  PurchaseReversed: 'forfeit',
  CreditsForfeited: 'forfeit',
  CreditAccountOpened: 'account',
  CreditAccountClosed: 'account',
  SubscriptionActivated: 'subscription',
  SubscriptionCancelled: 'subscription',
  SubscriptionEnded: 'subscription',
};

export const LEDGER_KIND_LABEL: Record<LedgerKind, string> = {
  grant: 'Grant',
  spend: 'Spend',
  refund: 'Refund',
  adjustment: 'Adjustment',
  forfeit: 'Forfeit',
  account: 'Account',
  subscription: 'Subscription',
  other: 'Change',
};

export const LEDGER_KIND_PALETTE: Record<LedgerKind, string> = {
  grant: 'green',
  spend: 'brand',
  refund: 'blue',
  adjustment: 'orange',
  forfeit: 'red',
  account: 'gray',
  subscription: 'purple',
  other: 'gray',
};

export const ledgerKind = (entry: Pick<LedgerEntryView, 'type'>): LedgerKind =>
  KIND_BY_TYPE[entry.type] ?? 'other';

/** Payment and subscription events read better by their own names than by their group. */
const LABEL_BY_TYPE: Record<string, string> = {
  SubscriptionActivated: 'Subscription',
  MonthlyCreditsGranted: 'Monthly credits',
  RolloverForfeited: 'Rollover forfeited',
  SubscriptionCancelled: 'Cancelled',
  SubscriptionEnded: 'Ended',
  PurchaseReversed: 'Refunded purchase',
};

/** The entry's badge: 'Purchase' for bought credits, else by type, else by its group. */
export function ledgerLabel(entry: Pick<LedgerEntryView, 'type' | 'reference'>): string {
  if (entry.type === 'CreditsGranted' && entry.reference) return 'Purchase';
  return LABEL_BY_TYPE[entry.type] ?? LEDGER_KIND_LABEL[ledgerKind(entry)];
}

/** Names of the outside ids a ledger entry may carry (Stripe's, for payments). */
const REFERENCE_LABEL: Record<string, string> = {
  checkoutSessionId: 'Checkout session',
  paymentIntentId: 'Payment intent',
  invoiceId: 'Invoice',
  subscriptionId: 'Subscription',
  chargeId: 'Charge',
};

/** [['Checkout session', 'cs_…'], …]: known ids first, in a fixed order, then any others. */
export function referenceParts(reference: Record<string, string> | null): [string, string][] {
  if (!reference) return [];
  const known = Object.keys(REFERENCE_LABEL).filter((key) => reference[key]);
  const others = Object.keys(reference)
    .filter((key) => !(key in REFERENCE_LABEL) && reference[key])
    .sort();
  return [...known, ...others].map((key) => [REFERENCE_LABEL[key] ?? key, reference[key]!]);
}

/** "+10", "−4", "0": the sign is text, not just colour. */
export function signedAmount(amount: number): string {
  if (amount > 0) return `+${amount}`;
  if (amount < 0) return `\u2212${Math.abs(amount)}`;
  return '0';
}

export function formatLedgerDate(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
