import type { LedgerEntryView, LedgerKind } from '@astra/contracts';
import { READINGS, readingOfApp } from '../readings/readingCatalog';

/**
 * How ledger entries look in the web app. Their words (names, descriptions) are the ledger's own:
 * `ledgerEntryLabel`, `ledgerEntryDetail` and `CREDIT_EVENT_LABELS` in `@astra/contracts`.
 */

export const LEDGER_KIND_PALETTE: Record<LedgerKind, string> = {
  grant: 'green',
  spend: 'brand',
  refund: 'blue',
  adjustment: 'orange',
  forfeit: 'red',
  account: 'gray',
  subscription: 'purple',
};

/** Names of the outside ids a ledger entry may carry (the payment provider's, for payments). */
const REFERENCE_LABEL: Record<string, string> = {
  checkoutSessionId: 'Checkout session',
  paymentIntentId: 'Payment',
  invoiceId: 'Invoice',
  subscriptionId: 'Subscription',
  chargeId: 'Charge',
  stripeEventId: 'Payment event',
  campaignId: 'Campaign',
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

export function formatLedgerDate(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('en-US', {
    timeZone,
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
  const app = readingOfApp(Number(entry.reference?.appId)) ?? READINGS['tarot-traditional'];
  return app.resultPath(readingId);
}
