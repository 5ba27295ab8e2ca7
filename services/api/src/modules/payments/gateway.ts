import type { BillingType } from '@astra/contracts';
import type { TierOffer } from './pricing.ts';

export interface CheckoutRequest {
  userId: string;
  email: string | null;
  offer: TierOffer;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSessionInfo {
  id: string;
  userId: string;
  tierId: number;
  billingType: BillingType;
  status: 'open' | 'complete' | 'canceled';
  subscriptionId: string | null;
}

/**
 * Where people pay: Stripe, or (development, no Stripe key) our own local checkout page. Both
 * end in the same signed webhook events reaching `POST /api/webhooks/stripe`.
 */
export interface PaymentGateway {
  readonly kind: 'stripe' | 'local';
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** A checkout session of this user; undefined when unknown or someone else's. */
  checkoutOf(sessionId: string, userId: string): Promise<CheckoutSessionInfo | undefined>;
  /** Ends a subscription when its paid period ends (access continues until then). */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
}

/** The metadata every checkout carries (and subscriptions copy): who, which tier, how billed. */
export const checkoutMetadata = (userId: string, offer: TierOffer) => ({
  userId,
  tierId: String(offer.tierId),
  billingType: offer.billingType,
});
