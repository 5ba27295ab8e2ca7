import { MAX_INT4, type StripeEvent, uuidIdSchema } from '@astra/contracts';
import { type CreditEvent, isDomainError, isoDay, monthOf } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';
import type { InvoicePayment, PaymentGateway } from './gateway.ts';
import { offerOf, type PricingSettings, subscriptionTier } from './pricing.ts';

export interface StripeEventOutcome {
  duplicate?: true;
  ignored?: true;
  outcome?: string;
  position?: bigint | null;
}

interface Applied {
  objectId: string;
  userId: string | null;
  outcome: string;
  position?: bigint | null;
  /** `invoice.payment_failed`: what the payment-failed message says. */
  paymentFailure?: StripeEvent['data']['paymentFailure'];
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const isoMonth = (unixSeconds: number) => monthOf(new Date(unixSeconds * 1000).toISOString());

/*
 * The fields each handled event's object is read for, checked before any of them reaches the
 * ledger, SQL or an outcome text. The object's id names what the event is about: without a valid
 * one the event is refused (400, nothing recorded). Any other field that is not what Stripe
 * sends (a NUL, a negative or unsafe amount, a timestamp past the year 9999, a user id that is
 * no UUID, a tier id past PostgreSQL's integer) is recorded as `refused: invalid <field>`: no
 * credit moves, and a redelivery is a duplicate.
 */
const stripeObjectId = z.string().regex(/^[A-Za-z0-9_-]{1,255}$/, 'must be a Stripe id');
const reference = z.union([stripeObjectId, z.looseObject({ id: stripeObjectId })]).nullish();
const word = z
  .string()
  .regex(/^[a-z_]{1,64}$/)
  .nullish();
const metadata = z
  .looseObject({
    userId: uuidIdSchema.nullish(),
    tierId: z
      .string()
      .regex(/^\d{1,10}$/)
      .refine((tierId) => Number(tierId) >= 1 && Number(tierId) <= MAX_INT4)
      .nullish(),
    billingType: word,
  })
  .nullish();
/** Minor units: Stripe's largest charge (99,999,999) is far below; the refunds' columns are `integer`. */
const minor = z.number().int().min(0).max(MAX_INT4);
/** An ISO currency code as Stripe writes it (lower case). */
const currency = z.string().regex(/^[a-z]{3}$/);
/** Unix seconds up to 9999-12-31 (a later date is no ISO date). */
const unixSeconds = z.number().min(0).max(253_402_300_799).nullish();
const sessionShape = z.looseObject({
  id: stripeObjectId,
  mode: word,
  payment_status: word,
  client_reference_id: uuidIdSchema.nullish(),
  metadata,
  payment_intent: reference,
  customer: reference,
  amount_total: minor.nullish(),
  currency: currency.nullish(),
});
const subscriptionShape = z.looseObject({
  id: stripeObjectId,
  metadata,
  cancel_at_period_end: z.boolean().nullish(),
  status: word,
});
const invoiceShape = z.looseObject({
  id: stripeObjectId,
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: reference, metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .looseObject({
      data: z
        .array(
          z.looseObject({
            period: z.looseObject({ start: unixSeconds, end: unixSeconds }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  period_start: unixSeconds,
  period_end: unixSeconds,
  amount_paid: minor.nullish(),
  currency: currency.nullish(),
  payments: z
    .looseObject({
      data: z
        .array(
          z.looseObject({
            status: word,
            payment: z.looseObject({ payment_intent: reference, charge: reference }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  payment_intent: reference,
  charge: reference,
  customer: reference,
});
const objectShapes: Record<string, z.ZodType> = {
  'checkout.session.completed': sessionShape,
  'checkout.session.async_payment_succeeded': sessionShape,
  'checkout.session.expired': sessionShape,
  'invoice.paid': invoiceShape,
  'invoice.payment_failed': invoiceShape.and(
    z.looseObject({ amount_due: minor.nullish(), next_payment_attempt: unixSeconds }),
  ),
  'customer.subscription.updated': subscriptionShape,
  'customer.subscription.deleted': subscriptionShape,
  'charge.refunded': z
    .looseObject({
      id: stripeObjectId,
      metadata,
      payment_intent: reference,
      amount: minor,
      amount_refunded: minor,
      currency,
    })
    .refine((charge) => charge.amount_refunded <= charge.amount, {
      path: ['amount_refunded'],
      message: 'is more than the amount',
    }),
};

/**
 * The first field of a handled event's object that is not what Stripe sends, as
 * `data.object.<field>`; null when every field the handler reads is sound (or the type is not
 * handled). An object without a valid id throws: 400, nothing recorded.
 */
export function invalidFieldOf(event: { type: string; data: { object: unknown } }): string | null {
  const parsed = objectShapes[event.type]?.safeParse(event.data.object);
  if (!parsed || parsed.success) return null;
  const issues = parsed.error.issues.map((issue) => ({
    ...issue,
    path: ['data', 'object', ...issue.path],
  }));
  const idIssue = issues.find((issue) => issue.path.length === 3 && issue.path[2] === 'id');
  if (idIssue) throw new z.ZodError([idIssue]);
  return issues[0]!.path.map(String).join('.');
}

/** Nothing to apply for a known reason (recorded, answered 200). */
const nothing = (objectId: string, userId: string | null, outcome: string): Applied => ({
  objectId,
  userId,
  outcome,
});

/** What a ledger command did: `done` when it appended events, `unchanged` when it had nothing to add. */
const outcomeOf = (
  objectId: string,
  userId: string,
  handled: { newEvents: unknown[]; position: bigint | null },
  done: string,
  unchanged: string,
): Applied => ({
  objectId,
  userId,
  outcome: handled.newEvents.length ? done : unchanged,
  position: handled.position,
});

/** A refused ledger command that a redelivery would not change: record it, answer 200. */
const unlessRefused = async (objectId: string, userId: string, work: () => Promise<Applied>) => {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error)) return nothing(objectId, userId, `refused: ${error.code}`);
    throw error;
  }
};

/**
 * The payment of an invoice. Since API version 2025-03-31.basil it is in `payments` (an
 * includable list, not always in the event); older versions had `payment_intent` / `charge` on
 * the invoice itself. Whatever is missing the gateway looks up.
 */
export const invoicePaymentOf = (invoice: Stripe.Invoice): InvoicePayment => {
  const payments = invoice.payments?.data ?? [];
  const paid = payments.find((p) => p.status === 'paid') ?? payments[0];
  const legacy = invoice as unknown as {
    payment_intent?: string | { id: string } | null;
    charge?: string | { id: string } | null;
  };
  return {
    invoiceId: invoice.id,
    paymentIntentId: idOf(paid?.payment?.payment_intent) ?? idOf(legacy.payment_intent),
    chargeId: idOf(paid?.payment?.charge) ?? idOf(legacy.charge),
    amountPaid: typeof invoice.amount_paid === 'number' ? invoice.amount_paid : null,
  };
};

/**
 * The subscription month an invoice pays for: the subscription and its metadata (whose, which
 * tier), and the paid period, whose start names the month and whose end is the next renewal.
 * The grant and a refund of its payment read it alike, so that they name the same month.
 */
const invoiceMonthOf = (invoice: Stripe.Invoice, now: Date) => {
  const details = invoice.parent?.subscription_details;
  const period = invoice.lines?.data?.[0]?.period;
  const periodStart = period?.start ?? invoice.period_start ?? Math.floor(now.getTime() / 1000);
  return {
    details,
    subscriptionId: idOf(details?.subscription),
    userId: details?.metadata?.userId ?? null,
    period: isoMonth(periodStart),
    periodStart,
    periodEnd: period?.end ?? invoice.period_end,
  };
};

/**
 * The Stripe ids of a paid invoice, for its month's `reference`: the payment only when the
 * invoice names it (the event's `payments` is not always included; nothing is fetched for it).
 */
const invoiceReference = (invoice: Stripe.Invoice, subscriptionId: string) => {
  const { paymentIntentId, chargeId } = invoicePaymentOf(invoice);
  const customerId = idOf(invoice.customer);
  return {
    invoiceId: invoice.id,
    subscriptionId,
    ...(paymentIntentId ? { paymentIntentId } : {}),
    ...(chargeId ? { chargeId } : {}),
    ...(customerId ? { customerId } : {}),
  };
};

/**
 * The money of a paid Stripe object as the ledger records it: Stripe's amount and currency
 * (a session's `amount_total`, an invoice's `amount_paid`), never our price table's.
 */
const paymentOf = (amountMinor: number | null | undefined, code: string | null | undefined) =>
  typeof amountMinor === 'number' && code ? { payment: { amountMinor, currency: code } } : {};

/** Why an invoice's money goes back, by the ledger's refusal. */
const refundReasons: Record<string, { reason: string; outcome: string }> = {
  account_closed: { reason: 'account_closed', outcome: 'refunded: account closed' },
  subscription_active: {
    reason: 'second_subscription',
    outcome: 'refunded: a second subscription, cancelled (the account has one already)',
  },
  // The subscription ended before its invoice reached us: no month is granted for it.
  no_active_subscription: {
    reason: 'subscription_ended',
    outcome: 'refunded: the subscription had ended',
  },
};

/**
 * Stripe as a command source of the ledger. Each event becomes ledger commands that are
 * idempotent by the Stripe object behind them (a checkout session grants once, an invoice's
 * month once, a charge's refunds reverse a pack in proportion once, a subscription invoice's
 * refunds are recorded once and keep its credits), so events may come in any order
 * and any number of times; a processed event id is also recorded on `stripe-{id}`. Credits
 * always come from our tier table, never from amounts in the event; the money recorded with
 * them (and every refund's) is Stripe's amount, for the admin dashboard's revenue. Unknown event types change
 * nothing. Money we must not keep (an invoice of a closed account, of a second subscription) is
 * given back through the gateway.
 */
export async function applyStripeEvent(
  ledger: Ledger,
  read: ReadDb,
  pricing: PricingSettings,
  gateway: PaymentGateway,
  event: Stripe.Event,
  now: Date,
): Promise<StripeEventOutcome> {
  if ((await ledger.load('stripe', event.id)).state.processed) return { duplicate: true };
  const context: CommandContext = {
    actor: { kind: 'stripe' },
    correlationId: event.id,
    causationId: event.id,
  };

  const invalid = invalidFieldOf(event);
  let applied: Applied;
  if (invalid !== null) {
    const objectId = (event.data.object as { id: string }).id;
    applied = nothing(objectId, null, `refused: invalid ${invalid}`);
  } else
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        applied = await checkoutPaid(event.data.object, event.id);
        break;
      case 'checkout.session.expired':
        applied = await checkoutExpired(event.data.object);
        break;
      case 'invoice.paid':
        applied = await invoicePaid(event.data.object);
        break;
      case 'invoice.payment_failed':
        applied = invoicePaymentFailed(event.data.object);
        break;
      case 'customer.subscription.updated':
        applied = await subscriptionUpdated(event.data.object);
        break;
      case 'customer.subscription.deleted':
        applied = await subscriptionDeleted(event.data.object);
        break;
      case 'charge.refunded':
        applied = await chargeRefunded(event.data.object);
        break;
      default:
        return { ignored: true };
    }
  await ledger.handle(
    'stripe',
    event.id,
    {
      type: 'RecordStripeEvent',
      eventId: event.id,
      eventType: event.type,
      objectId: applied.objectId,
      userId: applied.userId,
      outcome: applied.outcome,
      ...(applied.paymentFailure ? { paymentFailure: applied.paymentFailure } : {}),
    },
    context,
  );
  return { outcome: applied.outcome, position: applied.position ?? null };

  /** Frees the account's subscription checkout claim (a no-op when it is another session). */
  async function closeCheckout(
    session: Stripe.Checkout.Session,
    userId: string,
    outcome: 'completed' | 'expired',
    done: string,
    unchanged: string,
  ) {
    return unlessRefused(session.id, userId, async () => {
      const closed = await ledger.handle(
        'credits',
        userId,
        { type: 'CloseSubscriptionCheckout', sessionId: session.id, outcome },
        context,
      );
      return outcomeOf(session.id, userId, closed, done, unchanged);
    });
  }

  async function checkoutPaid(session: Stripe.Checkout.Session, eventId: string): Promise<Applied> {
    const userId = session.client_reference_id ?? session.metadata?.userId ?? null;
    if (session.mode !== 'payment') {
      const outcome = 'subscription checkout: credits come with invoice.paid';
      if (!userId || session.mode !== 'subscription') return nothing(session.id, userId, outcome);
      return closeCheckout(session, userId, 'completed', outcome, outcome);
    }
    if (session.payment_status !== 'paid')
      return nothing(session.id, userId, `not paid yet (${session.payment_status})`);
    if (!userId) return nothing(session.id, null, 'no user on the session');
    const offer = await offerOf(read, pricing, Number(session.metadata?.tierId), 'one_time');
    if (!offer) return nothing(session.id, userId, `no one-time tier ${session.metadata?.tierId}`);
    return unlessRefused(session.id, userId, async () => {
      const paymentIntentId = idOf(session.payment_intent);
      const customerId = idOf(session.customer);
      const granted = await ledger.handle(
        'credits',
        userId,
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
          ...paymentOf(session.amount_total, session.currency),
        },
        context,
      );
      return outcomeOf(session.id, userId, granted, 'granted', 'already granted');
    });
  }

  async function checkoutExpired(session: Stripe.Checkout.Session): Promise<Applied> {
    const userId = session.client_reference_id ?? session.metadata?.userId ?? null;
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

  /**
   * A subscription payment failed: nothing changes in the ledger (the month is granted when an
   * invoice is paid); it is recorded with what the member's message says (when Stripe tries
   * again). Stripe's own retries and, at their end, `customer.subscription.deleted` do the rest.
   */
  function invoicePaymentFailed(invoice: Stripe.Invoice): Applied {
    const { subscriptionId, userId } = invoiceMonthOf(invoice, now);
    if (!subscriptionId) return nothing(invoice.id, userId, 'not a subscription invoice');
    if (!userId) return nothing(invoice.id, null, 'no user on the subscription');
    const next = invoice.next_payment_attempt;
    return {
      objectId: invoice.id,
      userId,
      outcome: next
        ? `payment failed: Stripe tries again on ${new Date(next * 1000).toISOString().slice(0, 10)}`
        : 'payment failed: no further attempts',
      paymentFailure: {
        invoiceId: invoice.id,
        subscriptionId,
        amountMinor: invoice.amount_due ?? 0,
        currency: invoice.currency ?? 'usd',
        nextAttemptAt: next ? new Date(next * 1000).toISOString() : null,
      },
    };
  }

  async function invoicePaid(invoice: Stripe.Invoice): Promise<Applied> {
    const { details, subscriptionId, userId, period, periodStart, periodEnd } = invoiceMonthOf(
      invoice,
      now,
    );
    if (!details || !subscriptionId)
      return nothing(invoice.id, userId, 'not a subscription invoice');
    if (!userId) return nothing(invoice.id, null, 'no user on the subscription');
    const tier = await subscriptionTier(read, Number(details.metadata?.tierId));
    if (!tier)
      return nothing(invoice.id, userId, `no subscription tier ${details.metadata?.tierId}`);
    try {
      const { state } = await ledger.load('credits', userId);
      // A subscription the account has already is not activated again: an invoice paid before
      // a plan change (its metadata a snapshot) must not bring the old plan back.
      if (state.subscription?.subscriptionId !== subscriptionId) {
        await ledger.handle(
          'credits',
          userId,
          { type: 'ActivateSubscription', tier, subscriptionId, now },
          context,
        );
      }
      const granted = await ledger.handle(
        'credits',
        userId,
        {
          type: 'GrantMonthlyCredits',
          tier,
          period,
          trigger: 'renewal',
          reference: invoiceReference(invoice, subscriptionId),
          now,
          ...(periodEnd && periodEnd > periodStart
            ? { nextRenewalDate: isoDay(new Date(periodEnd * 1000)) }
            : {}),
          ...paymentOf(invoice.amount_paid, invoice.currency),
        },
        context,
      );
      return outcomeOf(invoice.id, userId, granted, 'renewed', 'month already granted');
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const refund = refundReasons[error.code];
      if (!refund) return nothing(invoice.id, userId, `refused: ${error.code}`);
      // Money for credits we refused: stop the subscription billing, and give the invoice back.
      await gateway.cancelNow(subscriptionId);
      const refunded = await gateway.refundInvoice(invoicePaymentOf(invoice), refund.reason);
      return nothing(
        invoice.id,
        userId,
        refunded.refunded
          ? refund.outcome
          : `refused: ${error.code}; subscription cancelled, nothing refunded (${refunded.detail})`,
      );
    }
  }

  async function subscriptionUpdated(subscription: Stripe.Subscription): Promise<Applied> {
    const userId = subscription.metadata?.userId ?? null;
    if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
    return unlessRefused(subscription.id, userId, async () => {
      const tier = await subscriptionTier(read, Number(subscription.metadata?.tierId));
      const { state } = await ledger.load('credits', userId);
      if (subscription.cancel_at_period_end) {
        // Stripe may report the cancellation before the first invoice: know the subscription first.
        if (!state.subscription && tier) {
          await ledger.handle(
            'credits',
            userId,
            { type: 'ActivateSubscription', tier, subscriptionId: subscription.id, now },
            context,
          );
        }
        const cancelled = await ledger.handle(
          'credits',
          userId,
          { type: 'CancelSubscription', reason: 'cancel_at_period_end' },
          context,
        );
        return outcomeOf(
          subscription.id,
          userId,
          cancelled,
          'cancelled at period end',
          'already cancelled',
        );
      }
      if (!tier || subscription.status !== 'active')
        return nothing(subscription.id, userId, 'no change');
      const current = state.subscription;
      if (
        current?.subscriptionId === subscription.id &&
        current.status === 'active' &&
        current.tierId !== tier.tierId
      ) {
        // The plan was changed (at Stripe, or by our own change-plan route): from the next renewal.
        const changed = await ledger.handle(
          'credits',
          userId,
          { type: 'ChangePlan', tier },
          context,
        );
        return outcomeOf(subscription.id, userId, changed, 'plan changed', 'no change');
      }
      const activated = await ledger.handle(
        'credits',
        userId,
        { type: 'ActivateSubscription', tier, subscriptionId: subscription.id, now, resume: true },
        context,
      );
      return outcomeOf(subscription.id, userId, activated, 'active', 'no change');
    });
  }

  async function subscriptionDeleted(subscription: Stripe.Subscription): Promise<Applied> {
    const userId = subscription.metadata?.userId ?? null;
    if (!userId) return nothing(subscription.id, null, 'no user on the subscription');
    return unlessRefused(subscription.id, userId, async () => {
      const { state } = await ledger.load('credits', userId);
      // Ending another subscription (a refused second one) must not end the one that runs.
      const running = state.subscription?.subscriptionId;
      if (running && running !== subscription.id)
        return nothing(subscription.id, userId, 'not the subscription of the account');
      const ended = await ledger.handle(
        'credits',
        userId,
        { type: 'EndSubscription', reason: 'stripe_subscription_deleted' },
        context,
      );
      return outcomeOf(subscription.id, userId, ended, 'ended', 'already ended');
    });
  }

  async function chargeRefunded(charge: Stripe.Charge): Promise<Applied> {
    // Whose purchase: the metadata our checkout gave the payment intent, which Stripe copies onto
    // its charge. Subscription invoices' charges carry none: their invoice tells whose they are.
    const userId = charge.metadata?.userId ?? null;
    const paymentIntentId = idOf(charge.payment_intent);
    if (!paymentIntentId) return nothing(charge.id, userId, 'not a purchase of ours');
    if (!userId || (charge.metadata?.billingType ?? 'one_time') !== 'one_time')
      return subscriptionPaymentRefunded(charge, paymentIntentId);
    return unlessRefused(charge.id, userId, async () => {
      const refunded = await ledger.handle(
        'credits',
        userId,
        {
          type: 'RefundPurchase',
          paymentIntentId,
          chargeId: charge.id,
          refundedMinor: charge.amount_refunded,
          paidMinor: charge.amount,
          currency: charge.currency,
        },
        context,
      );
      return {
        ...refundOutcome(charge.id, userId, refunded.newEvents),
        position: refunded.position,
      };
    });
  }

  /** A refund of a subscription invoice's payment: its money is recorded, its credits are kept. */
  async function subscriptionPaymentRefunded(
    charge: Stripe.Charge,
    paymentIntentId: string,
  ): Promise<Applied> {
    // Since API version 2025-03-31.basil a charge does not name its invoice: the gateway finds it.
    const invoice = await gateway.invoiceOfPayment(paymentIntentId);
    if (!invoice) return nothing(charge.id, null, 'not a purchase of ours');
    // Stripe's API answered, not a signed event: its fields are checked all the same.
    const checked = invoiceShape.safeParse(invoice);
    if (!checked.success) {
      const field = checked.error.issues[0]!.path.map(String).join('.');
      return nothing(charge.id, null, `refused: invalid invoice ${field}`);
    }
    const { subscriptionId, userId, period } = invoiceMonthOf(invoice, now);
    if (!subscriptionId) return nothing(charge.id, null, 'not a purchase of ours');
    if (!userId) return nothing(charge.id, null, 'no user on the subscription');
    return unlessRefused(charge.id, userId, async () => {
      const recorded = await ledger.handle(
        'credits',
        userId,
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
        context,
      );
      return outcomeOf(
        charge.id,
        userId,
        recorded,
        'refund recorded: subscription credits kept',
        'refund already recorded',
      );
    });
  }
}

/** What a refund did to the credits. */
const refundOutcome = (chargeId: string, userId: string, events: readonly CreditEvent[]) => {
  const reversed = events.find((e) => e.type === 'PurchaseReversed');
  if (reversed) return nothing(chargeId, userId, 'reversed');
  if (events.some((e) => e.type === 'PurchaseRefundPending'))
    return nothing(chargeId, userId, 'refund pending: reversed when its purchase arrives');
  // The money is recorded; its share of the credits rounds to none (or was taken back already).
  if (events.some((e) => e.type === 'PaymentRefunded'))
    return nothing(chargeId, userId, 'refund recorded: no credit to take back');
  return nothing(chargeId, userId, 'already reversed');
};
