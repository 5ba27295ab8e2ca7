import { type LedgerEntryView, voiceMessages } from '@astra/contracts';
import { APP_IDS, READING_APPS } from '../readings/readingCatalog';

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
  PurchaseRefundPending: 'refund',
  PaymentRefunded: 'refund',
  SubscriptionActivated: 'subscription',
  SubscriptionCheckoutStarted: 'subscription',
  SubscriptionCheckoutClosed: 'subscription',
  SubscriptionPlanChanged: 'subscription',
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

/** What each event is, in the words of the person whose credits they are. */
const LABEL_BY_TYPE: Record<string, string> = {
  CreditAccountOpened: 'Account opened',
  FreeCreditsGranted: 'Free welcome credits',
  SubscriptionActivated: 'Monthly plan started',
  MonthlyCreditsGranted: 'Monthly plan credits',
  RolloverForfeited: 'Unused plan credits expired',
  CreditsSpent: 'Reading',
  SpendRefunded: 'Credits returned',
  CreditsAdjusted: 'Adjusted by support',
  PurchaseReversed: 'Refund of a pack purchase',
  PurchaseRefundPending: 'Refund received',
  PaymentRefunded: 'Money refunded to your card',
  SubscriptionCheckoutStarted: 'Plan checkout opened',
  SubscriptionCheckoutClosed: 'Plan checkout closed',
  SubscriptionPlanChanged: 'Plan changed',
  SubscriptionCancelled: 'Monthly plan cancelled',
  SubscriptionEnded: 'Monthly plan ended',
  CreditsForfeited: 'Credits removed with the account',
  CreditAccountClosed: 'Account closed',
};

type EntryFacts = Pick<LedgerEntryView, 'type' | 'reference' | 'reason'>;

/**
 * A spend on a voice guide reactivation (`CreditsSpent`, purpose `voice_reactivation`), known by
 * its purpose where the entry carries it, else by the ledger's description of it.
 */
export const isVoiceReactivation = (entry: EntryFacts) =>
  entry.type === 'CreditsSpent' &&
  (entry.reference?.purpose === 'voice_reactivation' ||
    entry.reason === voiceMessages.ledgerCharge);

/**
 * The entry's name: a payment is named as the payment it was ('Credit pack purchase',
 * 'Monthly plan payment'), a voice reactivation as 'Voice guide reactivated', other changes by
 * their type, unknown ones by their group.
 */
export function ledgerLabel(entry: EntryFacts): string {
  if (isVoiceReactivation(entry)) return voiceMessages.ledgerCharge;
  if (entry.type === 'CreditsGranted') {
    return entry.reference ? 'Credit pack purchase' : 'Promotional credits';
  }
  if (entry.type === 'MonthlyCreditsGranted' && entry.reference?.invoiceId) {
    return 'Monthly plan payment';
  }
  return LABEL_BY_TYPE[entry.type] ?? LEDGER_KIND_LABEL[ledgerKind(entry)];
}

/**
 * The line under the name. The server's reason is plain for most entries; the rollover cap's
 * says which credits it concerns, because it never touches bought, free or promotional ones.
 */
export function ledgerDescription(entry: Pick<LedgerEntryView, 'type' | 'reason'>): string {
  if (entry.type === 'RolloverForfeited') {
    return "At renewal, subscription credits above one month's worth do not carry over. Purchased, free and promotional credits are never affected.";
  }
  return entry.reason;
}

/** The description, unless it would only repeat the name ('Free welcome credits' twice). */
export function ledgerDetail(entry: EntryFacts) {
  const description = ledgerDescription(entry);
  return description.toLowerCase() === ledgerLabel(entry).toLowerCase() ? null : description;
}

/** Names of the outside ids a ledger entry may carry (the payment provider's, for payments). */
const REFERENCE_LABEL: Record<string, string> = {
  checkoutSessionId: 'Checkout session',
  paymentIntentId: 'Payment',
  invoiceId: 'Invoice',
  subscriptionId: 'Subscription',
  chargeId: 'Charge',
  stripeEventId: 'Payment event',
};

/** What a spend's reference says about its reading: shown as a link, not as a payment id. */
const READING_KEYS = new Set(['readingId', 'appId', 'purpose', 'spendId']);

/** [['Checkout session', 'cs_…'], …]: known ids first, in a fixed order, then any others. */
export function referenceParts(reference: Record<string, string> | null): [string, string][] {
  if (!reference) return [];
  const known = Object.keys(REFERENCE_LABEL).filter((key) => reference[key]);
  const others = Object.keys(reference)
    .filter((key) => !(key in REFERENCE_LABEL) && !READING_KEYS.has(key) && reference[key])
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

/**
 * Where the reading a spend (a reading, a voice reactivation) paid for is shown, when the entry
 * names it. A reading of an unknown app opens on a result page that sends it to its own.
 */
export function ledgerReadingPath(
  entry: Pick<LedgerEntryView, 'reference'> & { readingId?: string | null },
): string | null {
  const readingId = entry.readingId ?? entry.reference?.readingId;
  if (!readingId) return null;
  const app =
    READING_APPS[Number(entry.reference?.appId)] ?? READING_APPS[APP_IDS.tarotTraditional]!;
  return app.resultPath(readingId);
}
