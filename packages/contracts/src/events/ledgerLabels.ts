import { z } from 'zod';
import { voiceMessages } from '../api/voice.ts';
import { formatLongDate, formatMoney } from '../format.ts';
import {
  type CreditEvent,
  type CreditEventType,
  grantKindSchema,
  spendPurposeSchema,
} from './credits.ts';

/**
 * The ledger's words, in one place. The ledger stores codes and parameters (an entry's event
 * type, its kind and `LedgerDetails`); the web, the exports and the admin screens name an entry
 * with the functions here, so a wording changes without a rebuild and reads the same everywhere.
 */

export const LEDGER_KINDS = [
  'grant',
  'spend',
  'refund',
  'adjustment',
  'forfeit',
  'account',
  'subscription',
] as const;
/** Credit event types grouped the way people think of them. */
export type LedgerKind = (typeof LEDGER_KINDS)[number];

interface CreditEventLabel {
  kind: LedgerKind;
  /** In the words of the person whose credits they are. */
  label: string;
  /** For staff, where the customer's words speak to the customer ("your card"). */
  staffLabel?: string;
  /** What the type means to an auditor (the ledger explorer's filter). */
  audit: string;
}

/** Every credit event type's kind and names: a type without them does not compile. */
export const CREDIT_EVENT_LABELS: Record<CreditEventType, CreditEventLabel> = {
  CreditAccountOpened: { kind: 'account', label: 'Account opened', audit: 'Account opened' },
  FreeCreditsGranted: { kind: 'grant', label: 'Free welcome credits', audit: 'Free allotment' },
  // Named by its grant kind (`ledgerEntryLabel`); this name is for an entry without details.
  CreditsGranted: {
    kind: 'grant',
    label: 'Credits granted',
    audit: 'Pack purchase or promotional grant',
  },
  SubscriptionActivated: {
    kind: 'subscription',
    label: 'Monthly plan started',
    audit: 'Plan started',
  },
  MonthlyCreditsGranted: {
    kind: 'grant',
    label: 'Monthly plan credits',
    audit: 'Monthly plan credits',
  },
  RolloverForfeited: {
    kind: 'forfeit',
    label: 'Unused plan credits expired',
    audit: 'Plan credits above the cap lost at renewal',
  },
  CreditsSpent: { kind: 'spend', label: 'Reading', audit: 'Reading or voice spend' },
  SpendRefunded: { kind: 'refund', label: 'Credits returned', audit: 'Spend given back' },
  CreditsAdjusted: {
    kind: 'adjustment',
    label: 'Adjusted by support',
    staffLabel: 'Admin adjustment',
    audit: 'Admin adjustment',
  },
  PurchaseReversed: {
    kind: 'forfeit',
    label: 'Refund of a pack purchase',
    audit: 'Refunded purchase taken back',
  },
  DisputeOpened: {
    kind: 'refund',
    label: 'Payment disputed: its credits on hold',
    audit: 'Payment disputed (credits held)',
  },
  DisputeClosed: {
    kind: 'refund',
    label: 'Payment dispute closed',
    audit: 'Payment dispute closed (won, or lost: credits taken back)',
  },
  PurchaseRefundPending: {
    kind: 'refund',
    label: 'Refund received',
    audit: 'Refund before its purchase',
  },
  PaymentRefunded: {
    kind: 'refund',
    label: 'Money refunded to your card',
    staffLabel: "Money refunded to the customer's card",
    audit: 'Money refunded by Stripe',
  },
  SubscriptionCheckoutStarted: {
    kind: 'subscription',
    label: 'Plan checkout opened',
    audit: 'Plan checkout opened',
  },
  SubscriptionCheckoutClosed: {
    kind: 'subscription',
    label: 'Plan checkout closed',
    audit: 'Plan checkout closed',
  },
  SubscriptionPlanChanged: { kind: 'subscription', label: 'Plan changed', audit: 'Plan changed' },
  SubscriptionCancelled: {
    kind: 'subscription',
    label: 'Monthly plan cancelled',
    audit: 'Plan cancelled',
  },
  SubscriptionEnded: { kind: 'subscription', label: 'Monthly plan ended', audit: 'Plan ended' },
  CreditsForfeited: {
    kind: 'forfeit',
    label: 'Credits removed with the account',
    audit: 'Credits removed with the account',
  },
  CreditAccountClosed: { kind: 'account', label: 'Account closed', audit: 'Account closed' },
};

const labelOf = (type: string): CreditEventLabel | undefined =>
  Object.hasOwn(CREDIT_EVENT_LABELS, type)
    ? CREDIT_EVENT_LABELS[type as CreditEventType]
    : undefined;

/**
 * The parameters an entry's words are built from: facts of its event, never a sentence. `note`
 * is text a person or a command gave (an admin's adjustment reason, a grant's reason, what a
 * spend bought), shown as given.
 */
export const ledgerDetailsSchema = z.object({
  note: z.string().optional(),
  grantKind: grantKindSchema.optional(),
  /** The campaign a promotional grant names (its reference's `campaignId`). */
  campaign: z.string().optional(),
  /** A monthly grant paid by an invoice (not a manual refresh). */
  paid: z.boolean().optional(),
  purpose: spendPurposeSchema.optional(),
  /** Why a spend was refunded: `generation_failed`, `voice_failed`, `interrupted`, … */
  refundReason: z.string().optional(),
  tierName: z.string().optional(),
  creditsPerMonth: z.number().int().optional(),
  period: z.string().optional(),
  rolledOver: z.number().int().optional(),
  monthlyCredits: z.number().int().optional(),
  credits: z.number().int().optional(),
  shortfall: z.number().int().optional(),
  money: z.object({ amountMinor: z.number().int(), currency: z.string() }).optional(),
  /** A dispute closed in our favour (false: lost). */
  won: z.boolean().optional(),
  outcome: z.string().optional(),
  /** A day (`YYYY-MM-DD`): a plan change's first day, a cancelled plan's last. */
  day: z.string().optional(),
});
export type LedgerDetails = z.infer<typeof ledgerDetailsSchema>;

/** An entry as the ledger keeps it: its event type (the code) and its parameters. */
export interface LedgerEntryCode {
  type: string;
  details: LedgerDetails;
}

/** The parameters of a credit event's entry. */
export const ledgerDetailsOf = (event: CreditEvent): LedgerDetails => {
  switch (event.type) {
    case 'CreditsGranted': {
      const { kind, reason, reference } = event.data;
      const campaign = kind === 'promotional' ? reference?.campaignId : undefined;
      return { grantKind: kind, note: reason, ...(campaign ? { campaign } : {}) };
    }
    case 'SubscriptionActivated':
    case 'SubscriptionPlanChanged': {
      const { tierName, creditsPerMonth } = event.data;
      const day = event.type === 'SubscriptionPlanChanged' ? event.data.effectiveFrom : undefined;
      return { tierName, creditsPerMonth, ...(day ? { day } : {}) };
    }
    case 'RolloverForfeited':
      return { period: event.data.period, monthlyCredits: event.data.monthlyCredits };
    case 'MonthlyCreditsGranted': {
      const { tierName, period, rolledOver, reference } = event.data;
      return { tierName, period, rolledOver, paid: Boolean(reference?.invoiceId) };
    }
    case 'CreditsSpent':
      return { note: event.data.description, purpose: event.data.purpose };
    case 'SpendRefunded':
      return { refundReason: event.data.reason };
    case 'CreditsAdjusted':
      return { note: event.data.reason };
    case 'PurchaseReversed':
      return { credits: event.data.amount, shortfall: event.data.shortfall };
    case 'PaymentRefunded':
    case 'DisputeOpened':
      return { money: { amountMinor: event.data.amountMinor, currency: event.data.currency } };
    case 'DisputeClosed':
      return { won: event.data.won, credits: event.data.amount, shortfall: event.data.shortfall };
    case 'SubscriptionCheckoutClosed':
      return { outcome: event.data.outcome };
    case 'SubscriptionCancelled':
      return { day: event.data.accessUntil };
    case 'CreditAccountOpened':
    case 'FreeCreditsGranted':
    case 'PurchaseRefundPending':
    case 'SubscriptionCheckoutStarted':
    case 'SubscriptionEnded':
    case 'CreditsForfeited':
    case 'CreditAccountClosed':
      return {};
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown credit event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/** An entry of a credit event: its code and parameters. */
export const ledgerEntryCodeOf = (event: CreditEvent): LedgerEntryCode => ({
  type: event.type,
  details: ledgerDetailsOf(event),
});

/**
 * The entry's name. A grant is named by what it was ('Credit pack purchase', 'Promotional
 * credits'), a paid plan month as 'Monthly plan payment', a voice reactivation as such; other
 * entries by their type, and an unknown type by itself.
 */
export function ledgerEntryLabel(
  { type, details }: LedgerEntryCode,
  audience: 'customer' | 'staff' = 'customer',
): string {
  if (type === 'CreditsGranted' && details.grantKind === 'purchase') return 'Credit pack purchase';
  if (type === 'CreditsGranted' && details.grantKind === 'promotional') {
    return details.campaign ? `Promotional credits: ${details.campaign}` : 'Promotional credits';
  }
  if (type === 'MonthlyCreditsGranted' && details.paid) return 'Monthly plan payment';
  if (type === 'CreditsSpent' && details.purpose === 'voice_reactivation') {
    return voiceMessages.ledgerCharge;
  }
  const label = labelOf(type);
  if (!label) return type;
  return (audience === 'staff' && label.staffLabel) || label.label;
}

const REFUND_REASONS: Record<string, string> = {
  generation_failed: 'the reading could not be generated',
  voice_failed: 'the voice guide could not be started',
  interrupted: 'the reading was interrupted',
};

/** The line under the name: what the entry did, from its parameters. */
export function ledgerEntryDescription({ type, details: d }: LedgerEntryCode): string {
  switch (type) {
    case 'CreditsGranted':
    case 'CreditsSpent':
    case 'CreditsAdjusted':
      return d.note ?? '';
    case 'SubscriptionActivated':
      return `Subscribed to ${d.tierName} (${d.creditsPerMonth} credits a month)`;
    case 'RolloverForfeited':
      return `At the ${d.period} renewal, subscription credits above one month's ${d.monthlyCredits} did not carry over. Purchased, free and promotional credits are never affected.`;
    case 'MonthlyCreditsGranted':
      return `${d.tierName} monthly credits for ${d.period} (${d.rolledOver} subscription credits rolled over)`;
    case 'SpendRefunded':
      return `Refund: ${REFUND_REASONS[d.refundReason ?? ''] ?? d.refundReason}`;
    case 'PurchaseReversed':
      return d.shortfall
        ? `Purchase refunded: ${d.credits} credits taken back, ${d.shortfall} already spent`
        : `Purchase refunded: ${d.credits} credits taken back`;
    case 'PurchaseRefundPending':
      return 'Refund received; its purchase is taken back as soon as it is recorded';
    case 'DisputeOpened':
      return d.money
        ? `Payment of ${formatMoney(d.money.amountMinor, d.money.currency)} disputed: the credits it bought are on hold until the dispute closes`
        : 'Payment disputed: the credits it bought are on hold until the dispute closes';
    case 'DisputeClosed':
      if (d.won) return 'Dispute won: the credits it held can be used again';
      return d.shortfall
        ? `Dispute lost: ${d.credits} credits taken back, ${d.shortfall} already spent`
        : `Dispute lost: ${d.credits} credits taken back`;
    case 'PaymentRefunded':
      return d.money
        ? `Payment refunded: ${formatMoney(d.money.amountMinor, d.money.currency)}`
        : 'Payment refunded';
    case 'SubscriptionCheckoutClosed':
      return `Subscription checkout ${d.outcome}`;
    case 'SubscriptionPlanChanged':
      return `Plan changed to ${d.tierName} (${d.creditsPerMonth} credits a month) from ${formatLongDate(d.day ?? '')}`;
    case 'SubscriptionCancelled':
      return `Subscription cancelled; access continues until ${formatLongDate(d.day ?? '')}`;
    case 'CreditsForfeited':
      return 'Remaining credits forfeited: account deleted';
    default:
      return labelOf(type)?.label ?? type;
  }
}

/** The description, unless it would only repeat the name ('Free welcome credits' twice). */
export function ledgerEntryDetail(entry: LedgerEntryCode): string | null {
  const description = ledgerEntryDescription(entry);
  return description.toLowerCase() === ledgerEntryLabel(entry).toLowerCase() ? null : description;
}
