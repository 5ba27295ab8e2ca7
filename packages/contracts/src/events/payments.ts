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
  }),
} as const;
export type StripeEvent = {
  type: 'StripeEventProcessed';
  data: z.infer<(typeof stripeEventSchemas)['StripeEventProcessed']>;
};
