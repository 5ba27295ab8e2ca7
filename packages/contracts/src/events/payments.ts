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
