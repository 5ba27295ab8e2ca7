import type { BalanceTransaction, StripeEvent } from '@astra/contracts';
import {
  type CreditCommand,
  type CreditEvent,
  isoDay,
  type StripeBalanceCommand,
  type Subscription,
  type Tier,
} from '@astra/ledger';
import type Stripe from 'stripe';
import type { InvoicePayment } from './gateway.ts';
import type { TierOffer } from './pricing.ts';
import {
  balanceTransactionShape,
  chargeShape,
  idOf,
  invoiceMonthOf,
  invoicePaymentOf,
  invoiceReference,
  invoiceShape,
  invoiceTaxOf,
  paymentOf,
  sessionTaxOf,
} from './stripeObjects.ts';

/**
 * What a Stripe event comes to: the credit commands to run, in order, on one account's stream,
 * and the outcome to record on `stripe-{eventId}`. Written by `commandsFor`, run by
 * `applyStripeEvent`.
 */
export interface StripeCommands {
  /** The Stripe object the event is about (a session, an invoice, a subscription, a charge). */
  objectId: string;
  userId: string | null;
  /** None: the outcome is recorded as it is. */
  commands: CreditCommand[];
  /** The outcome, by the events the last command appended (none: it had nothing to add). */
  outcome: string | ((appended: readonly CreditEvent[]) => string);
  /**
   * Money for credits the ledger refuses: on a refusal with a reason in `refundReasons`, the
   * subscription is cancelled at the gateway and the invoice refunded.
   */
  refundOnRefusal?: { subscriptionId: string; payment: InvoicePayment };
  /** `invoice.payment_failed`: what the payment-failed message says. */
  paymentFailure?: StripeEvent['data']['paymentFailure'];
  /**
   * A command on Stripe's balance (`stripe-balance`), for an event about Stripe's money: run
   * before the credit commands (a dispute has both).
   */
  balance?: StripeBalanceCommand;
}

/** What the commands of an event are decided on, besides the event: read, never written. */
export interface StripeLookups {
  now: Date;
  /** Our one-time pack of a tier id (credits, name), if it names one. */
  offer(tierId: number): Promise<TierOffer | undefined>;
  /** Our subscription tier of a tier id, if it names one. */
  subscriptionTier(tierId: number): Promise<Tier | undefined>;
  /** An account's subscription as its credit stream holds it now. */
  subscriptionOf(userId: string): Promise<Subscription | null>;
  /** The invoice a payment intent paid (the gateway asks Stripe); null when none. */
  invoiceOfPayment(paymentIntentId: string): Promise<Stripe.Invoice | null>;
  /** The balance transactions a payout settles (the gateway asks Stripe). */
  balanceTransactionsOfPayout(payoutId: string): Promise<Stripe.BalanceTransaction[]>;
  /** A charge (the gateway asks Stripe); null when there is none. */
  chargeOf(chargeId: string): Promise<Stripe.Charge | null>;
}

/** No command, for a known reason. */
const nothing = (objectId: string, userId: string | null, outcome: string): StripeCommands => ({
  objectId,
  userId,
  commands: [],
  outcome,
});

/** `done` when the last command appended events, `unchanged` when it had nothing to add. */
const doneOr = (done: string, unchanged: string) => (appended: readonly CreditEvent[]) =>
  appended.length ? done : unchanged;

type SessionEvent = Stripe.Checkout.Session;

/** The session's subscription checkout claim is freed (a no-op when it is another session's). */
const closeCheckout = (
  session: SessionEvent,
  userId: string,
  outcome: 'completed' | 'expired',
  done: string,
  unchanged: string,
): StripeCommands => ({
  objectId: session.id,
  userId,
  commands: [{ type: 'CloseSubscriptionCheckout', sessionId: session.id, outcome }],
  outcome: doneOr(done, unchanged),
});

const sessionUser = (session: SessionEvent) =>
  session.client_reference_id ?? session.metadata?.userId ?? null;

/** A paid checkout: a pack's credits (once per session); a subscription's come with its invoice. */
async function checkoutPaid(
  session: SessionEvent,
  eventId: string,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const userId = sessionUser(session);
  if (session.mode !== 'payment') {
    const outcome = 'subscription checkout: credits come with invoice.paid';
    if (!userId || session.mode !== 'subscription') return nothing(session.id, userId, outcome);
    return closeCheckout(session, userId, 'completed', outcome, outcome);
  }
  if (session.payment_status !== 'paid')
    return nothing(session.id, userId, `not paid yet (${session.payment_status})`);
  if (!userId) return nothing(session.id, null, 'no user on the session');
  const offer = await lookups.offer(Number(session.metadata?.tierId));
  if (!offer) return nothing(session.id, userId, `no one-time tier ${session.metadata?.tierId}`);
  const paymentIntentId = idOf(session.payment_intent);
  const customerId = idOf(session.customer);
  return {
    objectId: session.id,
    userId,
    commands: [
      {
        type: 'GrantCredits',
        grantId: `checkout:${session.id}`,
        kind: 'purchase',
        amount: offer.creditsIncluded,
        reason: `${offer.tierName} credit pack`,
        tierId: offer.tierId,
        reference: {
          checkoutSessionId: session.id,
          ...(paymentIntentId ? { paymentIntentId } : {}),
          ...(customerId ? { customerId } : {}),
          stripeEventId: eventId,
        },
        ...paymentOf(session.amount_total, session.currency, sessionTaxOf(session)),
      },
    ],
    outcome: doneOr('granted', 'already granted'),
  };
}

function checkoutExpired(session: SessionEvent): StripeCommands {
  const userId = sessionUser(session);
  if (session.mode !== 'subscription' || !userId)
    return nothing(session.id, userId, 'expired: nothing was paid');
  return closeCheckout(
    session,
    userId,
    'expired',
    'expired: the account may start another subscription checkout',
    'expired: no open checkout of this session',
  );
}

/** A subscription's month paid: the subscription known to the account, the month granted. */
async function invoicePaid(
  invoice: Stripe.Invoice,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const { now } = lookups;
  const { details, subscriptionId, userId, period, periodStart, periodEnd } = invoiceMonthOf(
    invoice,
    now,
  );
  if (!details || !subscriptionId) return nothing(invoice.id, userId, 'not a subscription invoice');
  if (!userId) return nothing(invoice.id, null, 'no user on the subscription');
  const tier = await lookups.subscriptionTier(Number(details.metadata?.tierId));
  if (!tier) return nothing(invoice.id, userId, `no subscription tier ${details.metadata?.tierId}`);
  const running = await lookups.subscriptionOf(userId);
  const commands: CreditCommand[] = [];
  // A subscription the account has already is not activated again: an invoice paid before a
  // plan change (its metadata a snapshot) must not bring the old plan back.
  if (running?.subscriptionId !== subscriptionId)
    commands.push({ type: 'ActivateSubscription', tier, subscriptionId, now });
  commands.push({
    type: 'GrantMonthlyCredits',
    tier,
    period,
    trigger: 'renewal',
    reference: invoiceReference(invoice, subscriptionId),
    now,
    ...(periodEnd && periodEnd > periodStart
      ? { nextRenewalDate: isoDay(new Date(periodEnd * 1000)) }
      : {}),
    ...paymentOf(invoice.amount_paid, invoice.currency, invoiceTaxOf(invoice)),
  });
  return {
    objectId: invoice.id,
    userId,
    commands,
    outcome: doneOr('renewed', 'month already granted'),
    refundOnRefusal: { subscriptionId, payment: invoicePaymentOf(invoice) },
  };
}

/**
 * A subscription payment failed: nothing changes in the ledger (the month is granted when an
 * invoice is paid); it is recorded with what the member's message says (when Stripe tries
 * again). Stripe's own retries and, at their end, `customer.subscription.deleted` do the rest.
 */
function invoicePaymentFailed(invoice: Stripe.Invoice, now: Date): StripeCommands {
  const { subscriptionId, userId } = invoiceMonthOf(invoice, now);
  if (!subscriptionId) return nothing(invoice.id, userId, 'not a subscription invoice');
  if (!userId) return nothing(invoice.id, null, 'no user on the subscription');
  const next = invoice.next_payment_attempt;
  return {
    ...nothing(
      invoice.id,
      userId,
      next
        ? `payment failed: Stripe tries again on ${new Date(next * 1000).toISOString().slice(0, 10)}`
        : 'payment failed: no further attempts',
    ),
    paymentFailure: {
      invoiceId: invoice.id,
      subscriptionId,
      amountMinor: invoice.amount_due ?? 0,
      currency: invoice.currency ?? 'usd',
      nextAttemptAt: next ? new Date(next * 1000).toISOString() : null,
    },
  };
}

async function subscriptionUpdated(
  subscription: Stripe.Subscription,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const { now } = lookups;
  const userId = subscription.metadata?.userId ?? null;
  if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
  const tier = await lookups.subscriptionTier(Number(subscription.metadata?.tierId));
  const current = await lookups.subscriptionOf(userId);
  const subscriptionId = subscription.id;
  const commands = (
    commands: CreditCommand[],
    done: string,
    unchanged: string,
  ): StripeCommands => ({
    objectId: subscriptionId,
    userId,
    commands,
    outcome: doneOr(done, unchanged),
  });
  if (subscription.cancel_at_period_end) {
    const cancel: CreditCommand = { type: 'CancelSubscription', reason: 'cancel_at_period_end' };
    // Stripe may report the cancellation before the first invoice: know the subscription first.
    const activate: CreditCommand[] =
      !current && tier ? [{ type: 'ActivateSubscription', tier, subscriptionId, now }] : [];
    return commands([...activate, cancel], 'cancelled at period end', 'already cancelled');
  }
  if (!tier || subscription.status !== 'active')
    return nothing(subscriptionId, userId, 'no change');
  if (
    current?.subscriptionId === subscriptionId &&
    current.status === 'active' &&
    current.tierId !== tier.tierId
  ) {
    // The plan was changed (at Stripe, or by our own change-plan route): from the next renewal.
    return commands([{ type: 'ChangePlan', tier }], 'plan changed', 'no change');
  }
  return commands(
    [{ type: 'ActivateSubscription', tier, subscriptionId, now, resume: true }],
    'active',
    'no change',
  );
}

async function subscriptionDeleted(
  subscription: Stripe.Subscription,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const userId = subscription.metadata?.userId ?? null;
  if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
  // Ending another subscription (a refused second one) must not end the one that runs.
  const running = (await lookups.subscriptionOf(userId))?.subscriptionId;
  if (running && running !== subscription.id)
    return nothing(subscription.id, userId, 'not the subscription of the account');
  return {
    objectId: subscription.id,
    userId,
    commands: [{ type: 'EndSubscription', reason: 'stripe_subscription_deleted' }],
    outcome: doneOr('ended', 'already ended'),
  };
}

/** What a refund of a pack did to its credits. */
const packRefundOutcome = (events: readonly CreditEvent[]) => {
  if (events.some((e) => e.type === 'PurchaseReversed')) return 'reversed';
  if (events.some((e) => e.type === 'PurchaseRefundPending'))
    return 'refund pending: reversed when its purchase arrives';
  // The money is recorded; its share of the credits rounds to none (or was taken back already).
  if (events.some((e) => e.type === 'PaymentRefunded'))
    return 'refund recorded: no credit to take back';
  return 'already reversed';
};

async function chargeRefunded(
  charge: Stripe.Charge,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  // Whose purchase: the metadata our checkout gave the payment intent, which Stripe copies onto
  // its charge. Subscription invoices' charges carry none: their invoice tells whose they are.
  const userId = charge.metadata?.userId ?? null;
  const paymentIntentId = idOf(charge.payment_intent);
  if (!paymentIntentId) return nothing(charge.id, userId, 'not a purchase of ours');
  if (!userId || (charge.metadata?.billingType ?? 'one_time') !== 'one_time')
    return subscriptionPaymentRefunded(charge, paymentIntentId, lookups);
  return {
    objectId: charge.id,
    userId,
    commands: [
      {
        type: 'RefundPurchase',
        paymentIntentId,
        chargeId: charge.id,
        refundedMinor: charge.amount_refunded,
        paidMinor: charge.amount,
        currency: charge.currency,
      },
    ],
    outcome: packRefundOutcome,
  };
}

/** A refund of a subscription invoice's payment: its money is recorded, its credits are kept. */
async function subscriptionPaymentRefunded(
  charge: Stripe.Charge,
  paymentIntentId: string,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  // Since API version 2025-03-31.basil a charge does not name its invoice: the gateway finds it.
  const invoice = await lookups.invoiceOfPayment(paymentIntentId);
  if (!invoice) return nothing(charge.id, null, 'not a purchase of ours');
  // Stripe's API answered, not a signed event: its fields are checked all the same.
  const checked = invoiceShape.safeParse(invoice);
  if (!checked.success) {
    const field = checked.error.issues[0]!.path.map(String).join('.');
    return nothing(charge.id, null, `refused: invalid invoice ${field}`);
  }
  const { subscriptionId, userId, period } = invoiceMonthOf(invoice, lookups.now);
  if (!subscriptionId) return nothing(charge.id, null, 'not a purchase of ours');
  if (!userId) return nothing(charge.id, null, 'no user on the subscription');
  return {
    objectId: charge.id,
    userId,
    commands: [
      {
        type: 'RecordPaymentRefund',
        paymentIntentId,
        chargeId: charge.id,
        refundedMinor: charge.amount_refunded,
        paidMinor: charge.amount,
        currency: charge.currency,
        invoiceId: invoice.id,
        subscriptionId,
        period,
      },
    ],
    outcome: doneOr('refund recorded: subscription credits kept', 'refund already recorded'),
  };
}

/**
 * A payout paid or failed (by the event's type: its object is as it was then): the balance
 * transactions it settles (Stripe's API, every page), for the fees and what reached the bank on
 * `stripe-balance`.
 */
async function payoutSettled(
  payout: Stripe.Payout,
  eventId: string,
  status: 'paid' | 'failed',
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const listed = await lookups.balanceTransactionsOfPayout(payout.id);
  const transactions = [];
  for (const [index, listedTransaction] of listed.entries()) {
    // Stripe's API answered, not a signed event: its fields are checked all the same.
    const checked = balanceTransactionShape.safeParse(listedTransaction);
    if (!checked.success) {
      const field = checked.error.issues[0]!.path.map(String).join('.');
      return nothing(payout.id, null, `refused: invalid balance transaction ${index} ${field}`);
    }
    transactions.push(transactionOf(checked.data));
  }
  return {
    ...nothing(payout.id, null, status === 'paid' ? 'payout paid' : 'payout failed'),
    balance: {
      type: 'RecordPayout',
      eventId,
      payout: {
        id: payout.id,
        amountMinor: payout.amount,
        currency: payout.currency,
        arrivalDate: new Date(payout.arrival_date * 1000).toISOString(),
        status,
      },
      transactions,
    },
  };
}

/** A balance transaction (its fields checked) as the ledger records it. */
const transactionOf = (t: {
  id: string;
  type: string;
  currency: string;
  amount: number;
  fee: number;
  net: number;
  source?: string | { id: string } | null;
}): BalanceTransaction => ({
  id: t.id,
  type: t.type,
  currency: t.currency,
  amountMinor: t.amount,
  feeMinor: t.fee,
  netMinor: t.net,
  sourceId: idOf(t.source),
});

/** What a dispute's event did to the credits of the pack it disputes. */
const disputeOutcome = (events: readonly CreditEvent[]) => {
  const closed = events.find((e) => e.type === 'DisputeClosed');
  if (closed?.type === 'DisputeClosed') {
    if (closed.data.won) return 'dispute won: credits released';
    return `dispute lost: ${closed.data.amount} credits taken back`;
  }
  const opened = events.find((e) => e.type === 'DisputeOpened');
  if (opened?.type === 'DisputeOpened')
    return opened.data.grantId
      ? 'dispute opened: credits on hold'
      : 'dispute opened: no pack to hold';
  return 'dispute already recorded';
};

/**
 * A dispute opened or closed (by the event's type): its money on Stripe's balance (the balance
 * transactions it names: withdrawn, returned when won, the dispute fee), whoever's charge it is;
 * and on the account of the pack the charge paid for, its credits held (opened), freed (won) or
 * taken back (lost). Whose: the charge's metadata (the dispute names only the charge: Stripe's
 * API is asked for it). A subscription month's payment keeps its credits, as with its refunds.
 */
async function disputeChanged(
  dispute: Stripe.Dispute,
  eventId: string,
  closed: boolean,
  lookups: StripeLookups,
): Promise<StripeCommands> {
  const chargeId = idOf(dispute.charge)!;
  const balance: StripeBalanceCommand = {
    type: 'RecordDispute',
    eventId,
    dispute: {
      id: dispute.id,
      chargeId,
      amountMinor: dispute.amount,
      currency: dispute.currency,
      status: dispute.status,
    },
    transactions: (dispute.balance_transactions ?? []).map(transactionOf),
  };
  const moneyOnly = (userId: string | null, outcome: string): StripeCommands => ({
    ...nothing(dispute.id, userId, outcome),
    balance,
  });
  const found = await lookups.chargeOf(chargeId);
  // Stripe's API answered, not a signed event: its fields are checked all the same.
  const checked = found && chargeShape.safeParse(found);
  if (!checked?.success) return moneyOnly(null, 'dispute recorded: not a charge of ours');
  const charge = checked.data;
  const userId = charge.metadata?.userId ?? null;
  const paymentIntentId = idOf(dispute.payment_intent) ?? idOf(charge.payment_intent);
  if (!userId || !paymentIntentId || (charge.metadata?.billingType ?? 'one_time') !== 'one_time')
    return moneyOnly(userId, 'dispute recorded: no pack of ours, no credit held');
  const disputed = {
    disputeId: dispute.id,
    chargeId,
    paymentIntentId,
    amountMinor: dispute.amount,
    currency: dispute.currency,
  };
  return {
    objectId: dispute.id,
    userId,
    commands: [
      closed
        ? { type: 'CloseDispute', ...disputed, status: dispute.status, paidMinor: charge.amount }
        : { type: 'OpenDispute', ...disputed },
    ],
    outcome: disputeOutcome,
    balance,
  };
}

/**
 * The commands a Stripe event of a handled type comes to (its object's fields already checked,
 * `invalidFieldOf`); null for a type the ledger does not handle. It writes nothing: what it
 * needs beyond the event it reads through `lookups`.
 */
export function commandsFor(
  event: Stripe.Event,
  lookups: StripeLookups,
): Promise<StripeCommands> | StripeCommands | null {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutPaid(event.data.object, event.id, lookups);
    case 'checkout.session.expired':
      return checkoutExpired(event.data.object);
    case 'invoice.paid':
      return invoicePaid(event.data.object, lookups);
    case 'invoice.payment_failed':
      return invoicePaymentFailed(event.data.object, lookups.now);
    case 'customer.subscription.updated':
      return subscriptionUpdated(event.data.object, lookups);
    case 'customer.subscription.deleted':
      return subscriptionDeleted(event.data.object, lookups);
    case 'charge.refunded':
      return chargeRefunded(event.data.object, lookups);
    case 'payout.paid':
      return payoutSettled(event.data.object, event.id, 'paid', lookups);
    case 'payout.failed':
      return payoutSettled(event.data.object, event.id, 'failed', lookups);
    case 'charge.dispute.created':
      return disputeChanged(event.data.object, event.id, false, lookups);
    case 'charge.dispute.closed':
      return disputeChanged(event.data.object, event.id, true, lookups);
    default:
      return null;
  }
}
