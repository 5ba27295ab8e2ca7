import { type CreditEvent, isDomainError } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import type Stripe from 'stripe';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';
import type { PaymentGateway } from './gateway.ts';
import { offerOf, type PricingSettings, subscriptionTier } from './pricing.ts';
import { commandsFor, type StripeCommands, type StripeLookups } from './stripeCommands.ts';
import { invalidFieldOf } from './stripeObjects.ts';

export interface StripeEventOutcome {
  duplicate?: true;
  ignored?: true;
  outcome?: string;
  position?: bigint | null;
}

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

const textOf = (outcome: StripeCommands['outcome'], appended: readonly CreditEvent[]) =>
  typeof outcome === 'string' ? outcome : outcome(appended);

/**
 * Runs an event's command on Stripe's balance, then its commands on the account's credit stream,
 * in order, and says what they did. A
 * refusal is an outcome, recorded like any other (a redelivery would be refused again); for an
 * invoice whose credits are refused, the money goes back (`refundOnRefusal`).
 */
async function run(
  planned: StripeCommands,
  ledger: Ledger,
  gateway: PaymentGateway,
  context: CommandContext,
): Promise<{ outcome: string; position: bigint | null }> {
  const { userId, commands, outcome, refundOnRefusal, balance } = planned;
  const booked = balance ? await ledger.handle('stripeBalance', null, balance, context) : null;
  const position = booked?.position ?? null;
  if (!userId || commands.length === 0) return { outcome: textOf(outcome, []), position };
  try {
    let last = null;
    for (const command of commands) last = await ledger.handle('credits', userId, command, context);
    const appended = last?.newEvents ?? [];
    return {
      outcome: textOf(outcome, appended),
      position: last?.position ?? position,
    };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const refund = refundOnRefusal && refundReasons[error.code];
    if (!refund) return { outcome: `refused: ${error.code}`, position };
    // Money for credits we refused: stop the subscription billing, and give the invoice back.
    await gateway.cancelNow(refundOnRefusal.subscriptionId);
    const refunded = await gateway.refundInvoice(refundOnRefusal.payment, refund.reason);
    return {
      outcome: refunded.refunded
        ? refund.outcome
        : `refused: ${error.code}; subscription cancelled, nothing refunded (${refunded.detail})`,
      position: null,
    };
  }
}

/**
 * Stripe as a command source of the ledger. Each event becomes ledger commands
 * (`commandsFor`) that are idempotent by the Stripe object behind them (a checkout session
 * grants once, an invoice's month once, a charge's refunds reverse a pack in proportion once, a
 * subscription invoice's refunds are recorded once and keep its credits), so events may come in
 * any order and any number of times; a processed event id is also recorded on `stripe-{id}`.
 * Credits always come from our tier table, never from amounts in the event; the money recorded
 * with them (and every refund's) is Stripe's amount, for the admin dashboard's revenue. Unknown
 * event types change nothing. Money we must not keep (an invoice of a closed account, of a
 * second subscription) is given back through the gateway.
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
  const lookups: StripeLookups = {
    now,
    offer: (tierId) => offerOf(read, pricing, tierId, 'one_time'),
    subscriptionTier: (tierId) => subscriptionTier(read, tierId),
    subscriptionOf: async (userId) => (await ledger.load('credits', userId)).state.subscription,
    invoiceOfPayment: (paymentIntentId) => gateway.invoiceOfPayment(paymentIntentId),
    balanceTransactionsOfPayout: (payoutId) => gateway.balanceTransactionsOfPayout(payoutId),
    chargeOf: (chargeId) => gateway.chargeOf(chargeId),
  };

  const invalid = invalidFieldOf(event);
  const planned =
    invalid === null
      ? await commandsFor(event, lookups)
      : {
          objectId: (event.data.object as { id: string }).id,
          userId: null,
          commands: [],
          outcome: `refused: invalid ${invalid}`,
        };
  if (!planned) return { ignored: true };
  const { outcome, position } = await run(planned, ledger, gateway, context);
  await ledger.handle(
    'stripe',
    event.id,
    {
      type: 'RecordStripeEvent',
      eventId: event.id,
      eventType: event.type,
      objectId: planned.objectId,
      userId: planned.userId,
      outcome,
      ...(planned.paymentFailure ? { paymentFailure: planned.paymentFailure } : {}),
    },
    context,
  );
  return { outcome, position };
}
