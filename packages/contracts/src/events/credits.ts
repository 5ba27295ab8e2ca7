import { z } from 'zod';

/** Events of the `credits-{userId}` stream: the ledger. Amounts are whole credits. */
const credits = z.number().int().positive();
const isoDate = z.iso.date();

export const spendPurposeSchema = z.enum(['reading', 'voice_reactivation']);
export const grantKindSchema = z.enum(['purchase', 'promotional']);

export const creditEventSchemas = {
  CreditAccountOpened: z.object({ userId: z.string() }),
  /** The once-per-e-mail free allotment, after its claim on `free-allotment-{hash}`. */
  FreeCreditsGranted: z.object({ amount: credits }),
  /** Credits bought or given; `grantId` makes a grant happen once (e.g. `checkout:cs_…`). */
  CreditsGranted: z.object({
    grantId: z.string(),
    kind: grantKindSchema,
    amount: credits,
    reason: z.string(),
    tierId: z.number().int().nullable(),
    reference: z.record(z.string(), z.string()).nullable(),
  }),
  SubscriptionActivated: z.object({
    tierId: z.number().int(),
    tierName: z.string(),
    creditsPerMonth: credits,
    subscriptionId: z.string().nullable(),
    nextRenewalDate: isoDate,
  }),
  /** The part of the balance above one month of credits, lost at a monthly refresh. */
  RolloverForfeited: z.object({ period: z.string(), amount: credits, monthlyCredits: credits }),
  MonthlyCreditsGranted: z.object({
    period: z.string(),
    tierId: z.number().int(),
    tierName: z.string(),
    amount: credits,
    previousBalance: z.number().int().nonnegative(),
    rolledOver: z.number().int().nonnegative(),
    nextRenewalDate: isoDate,
    grantedOn: isoDate,
    trigger: z.enum(['manual_refresh', 'renewal', 'scheduler']),
    reference: z.record(z.string(), z.string()).nullable(),
  }),
  CreditsSpent: z.object({
    spendId: z.string(),
    amount: credits,
    purpose: spendPurposeSchema,
    /** What was bought, for people reading the ledger: 'Tarot Traditional reading'. */
    description: z.string(),
    appId: z.number().int().nullable(),
    readingId: z.string().nullable(),
  }),
  SpendRefunded: z.object({ spendId: z.string(), amount: credits, reason: z.string() }),
  /** Signed: positive adds, negative deducts. */
  CreditsAdjusted: z.object({
    amount: z
      .number()
      .int()
      .refine((n) => n !== 0),
    reason: z.string().min(1),
    adminId: z.string(),
  }),
  /** Taking back a purchase that Stripe refunded; what could not be taken is the shortfall. */
  PurchaseReversed: z.object({
    grantId: z.string(),
    amount: z.number().int().nonnegative(),
    shortfall: z.number().int().nonnegative(),
    reference: z.record(z.string(), z.string()).nullable(),
  }),
  SubscriptionCancelled: z.object({ reason: z.string(), accessUntil: isoDate }),
  SubscriptionEnded: z.object({ reason: z.string() }),
  CreditsForfeited: z.object({ amount: credits, reason: z.enum(['account_deleted']) }),
  CreditAccountClosed: z.object({ reason: z.enum(['account_deleted']) }),
} as const;

type Schemas = typeof creditEventSchemas;
export type CreditEventType = keyof Schemas;
export type CreditEvent = {
  [K in CreditEventType]: { type: K; data: z.infer<Schemas[K]> };
}[CreditEventType];
export type CreditEventOf<K extends CreditEventType> = Extract<CreditEvent, { type: K }>;
export const creditEventTypes = Object.keys(creditEventSchemas) as CreditEventType[];
