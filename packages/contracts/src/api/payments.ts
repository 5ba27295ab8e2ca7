import { z } from 'zod';
import { intId, text } from './common.ts';
import { creditLotsSchema } from './me.ts';
import { voicePricingSchema } from './voice.ts';

export const billingTypeSchema = z.enum(['subscription', 'one_time']);
export type BillingType = z.infer<typeof billingTypeSchema>;

/** One way to buy a tier: monthly or once, with its price and credits. */
export const pricingRowSchema = z.object({
  billingType: billingTypeSchema,
  /** Minor units (cents). */
  priceMinor: z.number().int(),
  currency: z.string(),
  /** The price with two decimals, e.g. '9.99'. */
  price: z.string(),
  creditsIncluded: z.number().int(),
  /** What this way of buying gives: true of its billing type (a pack never "rolls over"). */
  features: z.array(z.string()),
});

export const pricingTierSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  popular: z.boolean(),
  creditsPerMonth: z.number().int(),
  rows: z.array(pricingRowSchema),
});
export type PricingTier = z.infer<typeof pricingTierSchema>;

/** `GET /api/pricing`: the tiers in the spec's order (Starter, Explorer, Stargazer, Celestial Pro). */
export const pricingResponseSchema = z.object({
  /** The one currency every price and refund rule is written in (ISO 4217, lower case). */
  currency: z.string(),
  tiers: z.array(pricingTierSchema),
  /** What a voice guide reactivation costs in credits, and a session's length. */
  voice: voicePricingSchema,
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;

/** `POST /api/checkout`. The tier id is an integer of an existing tier with that billing type. */
export const checkoutRequestSchema = z.strictObject({
  tierId: intId('tier id'),
  isSubscription: z.boolean({ error: 'must be true or false' }),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
export const checkoutResponseSchema = z.object({ url: z.string(), sessionId: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;
/**
 * `409 checkout_in_progress` from `POST /api/checkout`: a subscription checkout of this account is
 * still open; its `url` continues it (no second subscription can be started beside it).
 * `409 subscription_active`: the account has a plan; `POST /api/subscription/change` changes it.
 */
export const checkoutConflictSchema = z.object({
  error: z.enum(['checkout_in_progress', 'subscription_active']),
  message: z.string(),
  url: z.string().optional(),
  sessionId: z.string().optional(),
});

/** `POST /api/subscription/change`: another plan from the next renewal (no money moves now). */
export const changePlanRequestSchema = z.strictObject({
  tierId: intId('tier id'),
});
export type ChangePlanRequest = z.input<typeof changePlanRequestSchema>;

/** `GET /api/checkout/sessions/:id`: has the payment landed (the webhook arrived)? */
export const checkoutStatusSchema = z.object({
  sessionId: z.string(),
  status: z.enum(['processing', 'complete', 'canceled']),
  billingType: billingTypeSchema,
  tierName: z.string(),
  /** Credits the payment granted, once granted. */
  creditsAdded: z.number().int().nullable(),
  remainingCredits: z.number().int(),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/** The local checkout page (development, when Stripe is not configured). */
export const localCheckoutSessionSchema = z.object({
  sessionId: z.string(),
  tierName: z.string(),
  billingType: billingTypeSchema,
  price: z.string(),
  currency: z.string(),
  credits: z.number().int(),
  status: z.enum(['open', 'paid', 'canceled']),
});
export type LocalCheckoutSession = z.infer<typeof localCheckoutSessionSchema>;
/**
 * The local checkout's tax table (development without Stripe), standing in for Stripe Tax: a few
 * EU countries' standard VAT rates, in percent; any other country pays 0. Prices include it.
 */
export const LOCAL_CHECKOUT_TAX_RATES: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 21,
  DE: 19,
  ES: 21,
  FR: 20,
  IE: 23,
  IT: 22,
  NL: 21,
  PL: 23,
  SE: 25,
};
/**
 * `POST /api/checkout/local/:id/pay` (optional body): the customer's country, for the tax
 * (`LOCAL_CHECKOUT_TAX_RATES`); without one the payment records no tax, as with Stripe Tax off.
 */
export const localCheckoutPaySchema = z.object({
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a country code, two capital letters (ISO 3166-1 alpha-2)')
    .optional(),
});
export type LocalCheckoutPay = z.infer<typeof localCheckoutPaySchema>;
/** `POST /api/checkout/local/:id/pay` and `/cancel`: where the browser goes next. */
export const localCheckoutResultSchema = z.object({ redirectUrl: z.string() });
export type LocalCheckoutResult = z.infer<typeof localCheckoutResultSchema>;

/** `GET /api/subscription`: the spec's derived subscription view. */
export const subscriptionStatusSchema = z.object({
  isSubscriber: z.boolean(),
  subscriptionTier: z.string().nullable(),
  subscriptionStatus: z.enum(['active', 'cancelled']).nullable(),
  nextRenewalDate: z.string().nullable(),
  creditsRemaining: z.number().int(),
  creditsPerMonth: z.number().int().nullable(),
  needsRefresh: z.boolean(),
  lastRefreshDate: z.string().nullable(),
  rolloverCredits: z.number().int().nullable(),
  /** Subscription credits above one month's that the next renewal takes away. */
  forfeitAtRenewal: z.number().int(),
  creditLots: creditLotsSchema,
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** `POST /api/subscription/refresh` and `/cancel` answer with a message to show. */
export const subscriptionActionSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionStatusSchema,
});
export type SubscriptionAction = z.infer<typeof subscriptionActionSchema>;

export const cancelSubscriptionRequestSchema = z.strictObject({
  reason: text().max(500, 'must be at most 500 characters').default('user_requested'),
});
/** The body a client sends: `reason` may be left out (the server fills in its default). */
export type CancelSubscriptionRequest = z.input<typeof cancelSubscriptionRequestSchema>;

/** The spec's subscription messages. */
export const subscriptionMessages = {
  notAvailable: 'Not Available',
  creditsAvailable: 'Credits Available!',
  refreshNow: 'Refresh Now',
  refreshed: 'Credits Refreshed!',
  refreshFailed: 'Refresh Failed',
  refreshFailedRetry: 'Failed to refresh credits. Please try again.',
  cancelled: 'Subscription Cancelled',
  cancellationFailed: 'Cancellation Failed',
  cancellationFailedDefault: 'Failed to cancel subscription',
  cancellationFailedRetry: 'Failed to cancel subscription. Please try again.',
  checkStatusFailed: 'Failed to check subscription status',
  paymentSuccessful: 'Payment Successful!',
  paymentCanceled: 'Payment Canceled',
  pricingFailed: 'Failed to load pricing. Please try again.',
  checkoutFailed: 'Failed to create checkout session. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
} as const;
