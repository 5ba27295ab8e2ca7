import { z } from 'zod';

/** Events of the `credits-{userId}` stream: the ledger. Amounts are whole credits. */
const credits = z.number().int().positive();
const isoDate = z.iso.date();

export const spendPurposeSchema = z.enum(['reading', 'voice_reactivation']);
export const grantKindSchema = z.enum(['purchase', 'promotional']);

/** Where credits came from: a balance is kept in lots by source (see docs/events.md). */
export const creditLotSourceSchema = z.enum(['subscription', 'free', 'promotional', 'purchased']);
export type CreditLotSource = z.infer<typeof creditLotSourceSchema>;
/** Credits taken from (or given back to) one lot. */
export const lotTakeSchema = z.object({
  lot: z.string(),
  source: creditLotSourceSchema,
  amount: credits,
});
export type LotTake = z.infer<typeof lotTakeSchema>;

/** What Stripe refunded of a payment, in the payment's minor units (cumulative). */
const stripeRefund = z.object({
  paymentIntentId: z.string(),
  chargeId: z.string(),
  refundedMinor: z.number().int().nonnegative(),
  paidMinor: z.number().int().positive(),
  currency: z.string(),
});

/**
 * The tax in a payment's (or a refund's) amount, as Stripe computed it: the amount (minor units,
 * part of the gross amount), the customer's country (ISO 3166-1 alpha-2, upper case; null when
 * Stripe names none) and the rate in percent (null when Stripe gives none). Absent on old events:
 * their tax is unknown and reads as 0. The country is not marked `personal()`: a country alone
 * names nobody, and the tax records it belongs to must be kept for years (EU VAT/OSS), erasure or
 * not, so it must not become a tombstone.
 */
export const paymentTaxSchema = z.object({
  amountMinor: z.number().int().nonnegative(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
  ratePercent: z.number().nonnegative().max(100).nullable(),
});
export type PaymentTax = z.infer<typeof paymentTaxSchema>;

/**
 * The money Stripe took for a grant, from Stripe's own object (a checkout session's
 * `amount_total`, an invoice's `amount_paid`), never from our price table: the gross amount,
 * tax included (`tax`, when Stripe computed one). Absent on old events and on grants nobody paid
 * for.
 */
export const creditPaymentSchema = z
  .object({
    amountMinor: z.number().int().nonnegative(),
    currency: z.string(),
    tax: paymentTaxSchema.optional(),
  })
  .refine((payment) => (payment.tax?.amountMinor ?? 0) <= payment.amountMinor, {
    path: ['tax', 'amountMinor'],
    message: 'is more than the amount',
  });
export type CreditPayment = z.infer<typeof creditPaymentSchema>;

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
    payment: creditPaymentSchema.optional(),
  }),
  SubscriptionActivated: z.object({
    tierId: z.number().int(),
    tierName: z.string(),
    creditsPerMonth: credits,
    subscriptionId: z.string().nullable(),
    nextRenewalDate: isoDate,
  }),
  /**
   * Subscription credits above one month's, lost at a renewal. Only subscription lots count (old
   * events, from before lots, may have taken other credits too: they are replayed as recorded).
   */
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
    payment: creditPaymentSchema.optional(),
  }),
  CreditsSpent: z.object({
    spendId: z.string(),
    amount: credits,
    purpose: spendPurposeSchema,
    /** What was bought, for people reading the ledger: 'Tarot Traditional reading'. */
    description: z.string(),
    appId: z.number().int().nullable(),
    readingId: z.string().nullable(),
    /**
     * The lots it took, when some were on hold (a disputed payment's pack, which the spend
     * passes over); absent otherwise, the spending order then says which.
     */
    lots: z.array(lotTakeSchema).optional(),
  }),
  /** `lots`: where the credits go back to, the lots the spend took them from (absent on old events). */
  SpendRefunded: z.object({
    spendId: z.string(),
    amount: credits,
    reason: z.string(),
    lots: z.array(lotTakeSchema).optional(),
  }),
  /** Signed: positive adds, negative deducts. */
  CreditsAdjusted: z.object({
    amount: z
      .number()
      .int()
      .refine((n) => n !== 0),
    reason: z.string().min(1),
    adminId: z.string(),
    /** Makes the adjustment happen once (absent on old events and tools' adjustments). */
    adjustmentId: z.string().optional(),
    /**
     * A deduction's lots: where its credits were taken from, zero-value credits (free, then
     * promotional) first. Absent on positive adjustments and on deductions written before it,
     * which took their credits in the spending order (and are replayed so).
     */
    lots: z.array(lotTakeSchema).optional(),
  }),
  /**
   * Taking back (part of) a purchase that Stripe refunded, from that purchase's own lot; what
   * was already spent of it is the shortfall. `refund` (absent on old events, which reversed the
   * whole purchase) is the refund it answers: credits reversed in all = floor(granted ×
   * refundedMinor ÷ paidMinor).
   */
  PurchaseReversed: z.object({
    grantId: z.string(),
    amount: z.number().int().nonnegative(),
    shortfall: z.number().int().nonnegative(),
    reference: z.record(z.string(), z.string()).nullable(),
    refund: stripeRefund.optional(),
  }),
  /**
   * Money Stripe gave back of a payment, recorded whenever the payment's refunded total grows
   * (whether or not a credit moves): `amountMinor` is this refund's new money (`refundedMinor`
   * less what was recorded before for the payment), `refundedMinor` the cumulative total.
   * `invoiceId` and `subscriptionId` name the subscription invoice a refunded payment paid
   * (absent on a pack's refunds and on old events). `tax` is this refund's share of the payment's
   * tax (part of `amountMinor`), with its country and rate: absent when the payment recorded no
   * tax (or was not on the stream yet).
   */
  PaymentRefunded: z.object({
    paymentIntentId: z.string(),
    chargeId: z.string(),
    amountMinor: z.number().int().positive(),
    refundedMinor: z.number().int().positive(),
    currency: z.string(),
    invoiceId: z.string().optional(),
    subscriptionId: z.string().optional(),
    tax: paymentTaxSchema.optional(),
  }),
  /**
   * Stripe withdrew (part of) a payment because the customer disputed it (`charge.dispute.created`):
   * the credits left of the pack it paid for (`grantId`; null when it paid for no pack of this
   * account) are on hold until the dispute closes. `amountMinor` is the disputed amount; the money
   * itself is booked on `stripe-balance`. `reference` names the dispute, charge and payment intent.
   */
  DisputeOpened: z.object({
    disputeId: z.string(),
    grantId: z.string().nullable(),
    amountMinor: z.number().int().positive(),
    currency: z.string(),
    reference: z.record(z.string(), z.string()),
  }),
  /**
   * A dispute closed (`charge.dispute.closed`): `status` is Stripe's. Won, the pack's credits are
   * free again; lost (any other status), they are taken back like a refund's: `amount` from the
   * pack's own lot, what was already spent of its share the shortfall (credits taken back in all =
   * floor(granted × disputed ÷ paid), never more than the refunds left).
   */
  DisputeClosed: z.object({
    disputeId: z.string(),
    grantId: z.string().nullable(),
    status: z.string(),
    won: z.boolean(),
    amount: z.number().int().nonnegative(),
    shortfall: z.number().int().nonnegative(),
    reference: z.record(z.string(), z.string()),
  }),
  /** A refund whose purchase is not on the stream yet: the purchase, when it lands, is reversed. */
  PurchaseRefundPending: stripeRefund,
  /** A subscription checkout was opened: no second one (nor a second plan) while it is open. */
  SubscriptionCheckoutStarted: z.object({
    sessionId: z.string(),
    url: z.string(),
    tierId: z.number().int(),
    expiresAt: z.iso.datetime({ offset: true }),
  }),
  SubscriptionCheckoutClosed: z.object({
    sessionId: z.string(),
    outcome: z.enum(['completed', 'canceled', 'expired']),
  }),
  /** Another plan from the next renewal: this month's credits stay, the next month is the new plan's. */
  SubscriptionPlanChanged: z.object({
    fromTierId: z.number().int(),
    tierId: z.number().int(),
    tierName: z.string(),
    creditsPerMonth: credits,
    effectiveFrom: isoDate,
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
