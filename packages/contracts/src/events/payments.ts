import { z } from 'zod';

/** `stripe-{eventId}`: a Stripe event that was applied, recorded once so it is applied once. */
export const stripeEventSchemas = {
  StripeEventProcessed: z.object({
    eventId: z.string(),
    /** Stripe's event type, e.g. 'invoice.paid'. */
    eventType: z.string(),
    /** The Stripe object the event was about (checkout session, invoice, subscription, charge). */
    objectId: z.string(),
    userId: z.string().nullable(),
    /** What it did ('granted', 'renewed', 'cancelled at period end', 'ended', 'reversed', …) or why it did nothing. */
    outcome: z.string(),
    /**
     * A subscription payment that failed (`invoice.payment_failed`), for the message that says
     * what happens next: the invoice, its amount, and when Stripe tries again (null: it will
     * not). Absent on every other event.
     */
    paymentFailure: z
      .object({
        invoiceId: z.string(),
        subscriptionId: z.string(),
        amountMinor: z.number().int().nonnegative(),
        currency: z.string(),
        nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
      })
      .optional(),
  }),
} as const;
export type StripeEvent = {
  type: 'StripeEventProcessed';
  data: z.infer<(typeof stripeEventSchemas)['StripeEventProcessed']>;
};

/** A balance transaction a payout settles, as Stripe lists it (minor units, signed as Stripe's). */
export const balanceTransactionSchema = z.object({
  /** Stripe's balance transaction (`txn_…`). */
  id: z.string(),
  /** Stripe's type: `charge`, `payment`, `refund`, `adjustment` (a dispute), `stripe_fee`, `payout`, … */
  type: z.string(),
  currency: z.string(),
  amountMinor: z.number().int(),
  feeMinor: z.number().int(),
  netMinor: z.number().int(),
  /** The charge, refund or dispute behind it (`ch_…`, `re_…`, `du_…`); null when none. */
  sourceId: z.string().nullable(),
});
export type BalanceTransaction = z.infer<typeof balanceTransactionSchema>;

/**
 * Whether a balance transaction is a dispute's money (withdrawn −, returned +): Stripe's types
 * `dispute` and `dispute_reversal`, or an `adjustment` whose source is a dispute (`du_…`), as
 * older API versions write them.
 */
export const isDisputeTransaction = ({
  type,
  sourceId,
}: Pick<BalanceTransaction, 'type' | 'sourceId'>) =>
  type === 'dispute' ||
  type === 'dispute_reversal' ||
  (type === 'adjustment' && (sourceId?.startsWith('du_') ?? false));

/** `stripe-balance`: what moved in Stripe's balance (one stream). */
export const stripeBalanceEventSchemas = {
  /**
   * A payout paid or failed (`payout.paid`, `payout.failed`), with the balance transactions it
   * settles. `feesMinor` is the fee of those transactions not booked by an earlier event (a fee
   * is booked once); `paidOutMinor` what reached the bank: the amount when the payout is first
   * paid, minus it when a paid payout fails (Stripe puts the money back in the balance), 0
   * otherwise. `disputesMinor`: the money of dispute transactions among them not booked by an
   * earlier event (withdrawn +, returned −; absent on events from before disputes were booked).
   */
  PayoutRecorded: z.object({
    eventId: z.string(),
    payout: z.object({
      id: z.string(),
      amountMinor: z.number().int(),
      currency: z.string(),
      /** When Stripe said it reaches the bank (ISO 8601). */
      arrivalDate: z.iso.datetime({ offset: true }),
      status: z.enum(['paid', 'failed']),
    }),
    transactions: z.array(balanceTransactionSchema),
    feesMinor: z.number().int(),
    paidOutMinor: z.number().int(),
    disputesMinor: z.number().int().optional(),
  }),
  /**
   * A dispute opened or closed (`charge.dispute.created`, `charge.dispute.closed`), with its
   * balance transactions (the funds withdrawn, and returned when won). `disputesMinor` is the money
   * of those not booked by an earlier event (withdrawn +, returned −), `feesMinor` their fee not
   * booked yet (the dispute fee): each transaction is booked once, by the first event listing it.
   */
  DisputeRecorded: z.object({
    eventId: z.string(),
    dispute: z.object({
      id: z.string(),
      chargeId: z.string(),
      amountMinor: z.number().int(),
      currency: z.string(),
      /** Stripe's status: `needs_response`, `under_review`, `won`, `lost`, … */
      status: z.string(),
    }),
    transactions: z.array(balanceTransactionSchema),
    feesMinor: z.number().int(),
    disputesMinor: z.number().int(),
  }),
} as const;
type BalanceSchemas = typeof stripeBalanceEventSchemas;
export type StripeBalanceEvent = {
  [K in keyof BalanceSchemas]: { type: K; data: z.infer<BalanceSchemas[K]> };
}[keyof BalanceSchemas];
