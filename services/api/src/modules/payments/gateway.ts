import type { BillingType } from '@astra/contracts';
import type Stripe from 'stripe';
import type { TierOffer } from './pricing.ts';

export interface CheckoutRequest {
  userId: string;
  email: string | null;
  offer: TierOffer;
  successUrl: string;
  cancelUrl: string;
  /** When an unpaid session stops being payable (subscriptions: 30 minutes, Stripe's minimum). */
  expiresAt?: Date;
}

export interface CheckoutSessionInfo {
  id: string;
  userId: string;
  tierId: number;
  billingType: BillingType;
  status: 'open' | 'complete' | 'canceled';
  subscriptionId: string | null;
}

/** The payment of an invoice, as far as the invoice event names it. */
export interface InvoicePayment {
  invoiceId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  /** What the invoice says was paid, in minor units; 0 means there is nothing to give back. */
  amountPaid: number | null;
}

/** What a refund request did. */
export interface RefundResult {
  refunded: boolean;
  /** The gateway's refund id, or why nothing was refunded. */
  detail: string;
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
  /** Makes an unpaid checkout session unpayable (one we refused to go on with). */
  expireCheckout(sessionId: string): Promise<void>;
  /** Ends a subscription when its paid period ends (access continues until then). */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** Ends a subscription now: nothing more is billed (an account deleted, a second subscription). */
  cancelNow(subscriptionId: string): Promise<void>;
  /**
   * Bills another tier from the next renewal on; no money moves now (no proration). The
   * subscription then carries the new tier in its metadata.
   */
  changePlan(subscriptionId: string, offer: TierOffer, userId: string): Promise<void>;
  /**
   * Gives back the payment of an invoice whose credits we refused. Idempotent by invoice: a
   * redelivered event cannot refund twice.
   */
  refundInvoice(payment: InvoicePayment, reason: string): Promise<RefundResult>;
  /**
   * The invoice a payment intent paid, in Stripe's shape (its subscription and their metadata
   * tell whose month it was); null when it paid no invoice, or the gateway has no invoices.
   * Since API version 2025-03-31.basil a charge no longer names its invoice.
   */
  invoiceOfPayment(paymentIntentId: string): Promise<Stripe.Invoice | null>;
  /**
   * The balance transactions a payout settles, every page, each with its `source` expanded (the
   * charge, refund or dispute behind it). The local checkout pays nothing out: none.
   */
  balanceTransactionsOfPayout(payoutId: string): Promise<Stripe.BalanceTransaction[]>;
  /**
   * A charge, in Stripe's shape (its metadata names whose payment it was): a dispute names only
   * its charge. Null when the gateway has no such charge.
   */
  chargeOf(chargeId: string): Promise<Stripe.Charge | null>;
}

/** The metadata every checkout carries (and subscriptions copy): who, which tier, how billed. */
export const checkoutMetadata = (userId: string, offer: TierOffer) => ({
  userId,
  tierId: String(offer.tierId),
  billingType: offer.billingType,
});

/**
 * Subscription checkouts stay payable this long: Stripe's shortest `expires_at` (30 minutes)
 * and a minute more, so a clock a little behind Stripe's is not refused.
 */
export const SUBSCRIPTION_CHECKOUT_MINUTES = 31;
