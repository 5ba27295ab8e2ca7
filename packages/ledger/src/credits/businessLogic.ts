import type { CreditEvent, CreditEventOf, CreditPayment } from '@astra/contracts';
import { firstDayOfNextMonth, isoDay, monthOf } from '../dates.ts';
import {
  type CreditAccount,
  evolve,
  lotsOnHold,
  monthKey,
  type Purchase,
  type TaxedPayment,
  wasGranted,
} from './account.ts';
import {
  type Cmd,
  type CreditCommand,
  type DisputedPayment,
  errors,
  MAX_ADJUSTMENT,
  requireOpen,
  requirePositiveWhole,
  type Tier,
  withinCeiling,
} from './commands.ts';
import { deductionLots, lotsBalance, lotTotals, spendLots } from './lots.ts';

export { type CreditCommand, errors, MAX_ADJUSTMENT, MAX_BALANCE, type Tier } from './commands.ts';

/**
 * The rollover, on subscription credits only: the subscription credits left carry over up to one
 * month's worth, anything above is forfeited by its own event first. Free, promotional and
 * purchased credits never expire and never count against the cap.
 */
export const monthlyGrant = (
  state: CreditAccount,
  tier: Tier,
  period: string,
  now: Date,
  trigger: CreditEventOf<'MonthlyCreditsGranted'>['data']['trigger'],
  reference: Record<string, string> | null,
  nextRenewalDate = firstDayOfNextMonth(now),
  payment?: CreditPayment,
): CreditEvent[] => {
  const monthly = tier.creditsPerMonth;
  const subscriptionCredits = lotTotals(state.lots).subscription;
  const rolledOver = Math.min(subscriptionCredits, monthly);
  const forfeited = subscriptionCredits - rolledOver;
  const events: CreditEvent[] = [];
  if (forfeited > 0) {
    events.push({
      type: 'RolloverForfeited',
      data: { period, amount: forfeited, monthlyCredits: monthly },
    });
  }
  events.push({
    type: 'MonthlyCreditsGranted',
    data: {
      period,
      tierId: tier.tierId,
      tierName: tier.tierName,
      amount: monthly,
      previousBalance: state.balance,
      rolledOver,
      nextRenewalDate,
      grantedOn: isoDay(now),
      trigger,
      reference,
      ...(payment ? { payment } : {}),
    },
  });
  return events;
};

/** The spec's success text for a monthly refresh, from the events it produced. */
export const refreshSummary = (events: readonly CreditEvent[]) => {
  const grant = events.find(
    (e): e is CreditEventOf<'MonthlyCreditsGranted'> => e.type === 'MonthlyCreditsGranted',
  );
  if (!grant) return null;
  const { amount, rolledOver, previousBalance } = grant.data;
  const forfeited = events.reduce(
    (sum, e) => (e.type === 'RolloverForfeited' ? sum + e.data.amount : sum),
    0,
  );
  return `Monthly credits refreshed! Added ${amount} credits + ${rolledOver} rolled over. New balance: ${previousBalance - forfeited + amount}.`;
};

// One function per command: each rule is found under its command's name.

const openAccount = (command: Cmd<'OpenAccount'>, state: CreditAccount): CreditEvent[] =>
  state.status === 'unopened' // opening is idempotent
    ? [{ type: 'CreditAccountOpened', data: { userId: command.userId } }]
    : [];

const grantFreeAllotment = (
  command: Cmd<'GrantFreeAllotment'>,
  state: CreditAccount,
): CreditEvent[] => {
  requireOpen(state);
  requirePositiveWhole(command.amount, 'The free allotment');
  if (state.freeAllotmentGranted) return [];
  return withinCeiling(state, [{ type: 'FreeCreditsGranted', data: { amount: command.amount } }]);
};

/**
 * A purchase's credits in proportion to a part of its payment, rounded down: a partial refund (or
 * a lost dispute) never takes a credit more than its share.
 */
const creditsShare = (purchase: Purchase, partMinor: number, paidMinor: number) =>
  Math.min(
    Number((BigInt(purchase.granted) * BigInt(partMinor)) / BigInt(paidMinor)),
    purchase.granted,
  );

/** The credits left in a purchase's own lot. */
const leftIn = (state: CreditAccount, grantId: string) =>
  state.lots.find((lot) => lot.id === grantId)?.remaining ?? 0;

/** What refunds of a purchase's payment still have to take back, in credits. */
const reversalOf = (
  purchase: Purchase,
  refund: CreditEventOf<'PurchaseRefundPending'>['data'],
  state: CreditAccount,
): CreditEvent[] => {
  // In proportion to the money refunded, beside what lost disputes of other money of the payment
  // took: all of them together never more than the purchase granted.
  const byDisputes = Object.values(state.disputes)
    .filter((dispute) => dispute.grantId === purchase.grantId)
    .reduce((sum, dispute) => sum + (dispute.taken ?? 0), 0);
  const due = Math.min(
    creditsShare(purchase, refund.refundedMinor, refund.paidMinor) -
      (purchase.reversed - byDisputes),
    purchase.granted - purchase.reversed,
  );
  if (due <= 0) return [];
  const amount = Math.min(due, leftIn(state, purchase.grantId));
  return [
    {
      type: 'PurchaseReversed',
      data: {
        grantId: purchase.grantId,
        amount,
        shortfall: due - amount,
        reference: { chargeId: refund.chargeId, paymentIntentId: refund.paymentIntentId },
        refund,
      },
    },
  ];
};

const grantCredits = (command: Cmd<'GrantCredits'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  requirePositiveWhole(command.amount, 'A grant');
  if (wasGranted(state, command.grantId)) return []; // this grant was made already
  const { type: _type, payment, ...rest } = command;
  const granted: CreditEvent = {
    type: 'CreditsGranted',
    data: { ...rest, ...(payment ? { payment } : {}) },
  };
  // A refund of this payment that came first is applied now that the purchase is here.
  const paymentIntentId = command.reference?.paymentIntentId;
  const pending = paymentIntentId ? state.pendingRefunds[paymentIntentId] : undefined;
  if (command.kind !== 'purchase' || !pending) return withinCeiling(state, [granted]);
  const after = evolve(state, granted);
  const purchase = after.purchases.get(command.grantId);
  return withinCeiling(
    state,
    purchase ? [granted, ...reversalOf(purchase, pending, after)] : [granted],
  );
};

/** The subscription that still runs (active, or cancelled until its paid period ends). */
const requireNoOtherSubscription = (state: CreditAccount, subscriptionId: string | null) => {
  const current = state.subscription;
  if (current && current.subscriptionId !== subscriptionId)
    throw errors.subscriptionActive(current.tierName);
};

const activateSubscription = (
  command: Cmd<'ActivateSubscription'>,
  state: CreditAccount,
): CreditEvent[] => {
  requireOpen(state);
  // An ended subscription stays ended, whatever arrives late about it.
  if (command.subscriptionId && state.endedSubscriptions.includes(command.subscriptionId))
    return [];
  // One plan per account: a second subscription is refused (its payment is given back).
  requireNoOtherSubscription(state, command.subscriptionId);
  const current = state.subscription;
  if (current && current.subscriptionId === command.subscriptionId) {
    // The running subscription: its plan changes only by ChangePlan (an old invoice's tier is a
    // snapshot), and a cancellation at period end holds (a paid invoice does not undo it)
    // unless resumed.
    if (current.status === 'active' || !command.resume) return [];
    const { tierId, tierName, creditsPerMonth, subscriptionId, nextRenewalDate } = current;
    return [
      {
        type: 'SubscriptionActivated',
        data: { tierId, tierName, creditsPerMonth, subscriptionId, nextRenewalDate },
      },
    ];
  }
  return [
    {
      type: 'SubscriptionActivated',
      data: {
        tierId: command.tier.tierId,
        tierName: command.tier.tierName,
        creditsPerMonth: command.tier.creditsPerMonth,
        subscriptionId: command.subscriptionId,
        nextRenewalDate: isoDay(command.now),
      },
    },
  ];
};

const refreshMonthlyCredits = (
  command: Cmd<'RefreshMonthlyCredits'>,
  state: CreditAccount,
): CreditEvent[] => {
  if (state.status === 'unopened') throw errors.userNotFound();
  const subscription = state.subscription;
  if (state.status === 'closed' || subscription?.status !== 'active') {
    throw errors.noActiveSubscription();
  }
  if (!subscription.tierId) throw errors.missingTier();
  if (!command.tier || command.tier.tierId !== subscription.tierId) throw errors.invalidTier();
  if (subscription.nextRenewalDate > isoDay(command.now)) {
    throw errors.refreshNotDue(subscription.nextRenewalDate, command.now);
  }
  const period = monthOf(subscription.nextRenewalDate);
  if (state.grantedMonths.includes(monthKey(subscription.subscriptionId, period))) {
    throw errors.refreshNotDue(firstDayOfNextMonth(command.now), command.now);
  }
  return withinCeiling(
    state,
    monthlyGrant(state, command.tier, period, command.now, 'manual_refresh', null),
  );
};

const grantMonthlyCredits = (
  command: Cmd<'GrantMonthlyCredits'>,
  state: CreditAccount,
): CreditEvent[] => {
  requireOpen(state);
  const subscription = state.subscription;
  if (!subscription) throw errors.noActiveSubscription();
  if (!command.tier || command.tier.tierId !== subscription.tierId) throw errors.invalidTier();
  if (state.grantedMonths.includes(monthKey(subscription.subscriptionId, command.period)))
    return [];
  return withinCeiling(
    state,
    monthlyGrant(
      state,
      command.tier,
      command.period,
      command.now,
      command.trigger,
      command.reference,
      command.nextRenewalDate,
      command.payment,
    ),
  );
};

const spendCredits = (command: Cmd<'SpendCredits'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  requirePositiveWhole(command.amount, 'A spend');
  if (command.blocked) throw errors.accountBlocked();
  // The same spend again (a retried request) is spent once.
  if (state.recentSpends.some((s) => s.spendId === command.spendId)) return [];
  if (state.balance < command.amount) {
    throw errors.insufficientCredits(command.amount, state.balance);
  }
  const { type: _type, blocked: _blocked, ...data } = command;
  const onHold = lotsOnHold(state);
  if (onHold.size === 0) return [{ type: 'CreditsSpent', data }];
  // A disputed payment's credits are on hold: the spend passes over them, and says what it took.
  const usable = lotsBalance(state.lots.filter((lot) => !onHold.has(lot.id)));
  if (usable < command.amount)
    throw errors.creditsOnHold(command.amount, usable, state.balance - usable);
  return [
    {
      type: 'CreditsSpent',
      data: { ...data, lots: spendLots(state.lots, command.amount, onHold) },
    },
  ];
};

/** The pack a disputed payment bought on this account (by its payment intent), if any. */
const disputedPackOf = (state: CreditAccount, { paymentIntentId }: DisputedPayment) =>
  [...state.purchases.values()].find((p) => p.paymentIntentId === paymentIntentId)?.grantId ?? null;

/** A disputed amount as Stripe reports it: more than 0, at most what was paid, whole minor units. */
const requireDisputeOf = (amountMinor: number, paidMinor = Number.MAX_SAFE_INTEGER) => {
  if (
    !Number.isSafeInteger(amountMinor) ||
    !Number.isSafeInteger(paidMinor) ||
    amountMinor <= 0 ||
    amountMinor > paidMinor
  )
    throw errors.invalidDispute();
};

const disputeReference = ({ disputeId, chargeId, paymentIntentId }: DisputedPayment) => ({
  disputeId,
  chargeId,
  paymentIntentId,
});

const disputeOpened = (dispute: DisputedPayment, grantId: string | null): CreditEvent => ({
  type: 'DisputeOpened',
  data: {
    disputeId: dispute.disputeId,
    grantId,
    amountMinor: dispute.amountMinor,
    currency: dispute.currency,
    reference: disputeReference(dispute),
  },
});

const openDispute = (command: Cmd<'OpenDispute'>, state: CreditAccount): CreditEvent[] => {
  // A closed account too: the money was withdrawn whatever became of the credits.
  if (state.status === 'unopened') throw errors.userNotFound();
  requireDisputeOf(command.amountMinor);
  if (state.disputes[command.disputeId]) return []; // once per dispute
  return [disputeOpened(command, disputedPackOf(state, command))];
};

/**
 * Won, the held credits are free again; lost, the pack's credits are taken back like a refund's:
 * its share of the disputed amount, from its own lot, what was spent of it the shortfall (never
 * more than its refunds left). A dispute whose opening never reached us is opened first.
 */
const closeDispute = (command: Cmd<'CloseDispute'>, state: CreditAccount): CreditEvent[] => {
  if (state.status === 'unopened') throw errors.userNotFound();
  requireDisputeOf(command.amountMinor, command.paidMinor);
  const known = state.disputes[command.disputeId];
  if (known && !known.open) return []; // closed once
  const grantId = known ? known.grantId : disputedPackOf(state, command);
  const opened = known ? [] : [disputeOpened(command, grantId)];
  const won = command.status === 'won';
  const purchase = grantId ? state.purchases.get(grantId) : undefined;
  const due =
    purchase && !won
      ? Math.min(
          creditsShare(purchase, command.amountMinor, command.paidMinor),
          purchase.granted - purchase.reversed,
        )
      : 0;
  const amount = purchase && due > 0 ? Math.min(due, leftIn(state, purchase.grantId)) : 0;
  return [
    ...opened,
    {
      type: 'DisputeClosed',
      data: {
        disputeId: command.disputeId,
        grantId,
        status: command.status,
        won,
        amount,
        shortfall: Math.max(due - amount, 0),
        reference: disputeReference(command),
      },
    },
  ];
};

const refundSpend = (command: Cmd<'RefundSpend'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  const spend = state.recentSpends.find((s) => s.spendId === command.spendId);
  if (!spend) throw errors.spendNotRefundable(command.spendId);
  if (spend.refunded) return []; // refunding twice is a no-op, not a second refund
  return withinCeiling(state, [
    {
      type: 'SpendRefunded',
      data: {
        spendId: spend.spendId,
        amount: spend.amount,
        reason: command.reason,
        lots: [...spend.taken],
      },
    },
  ]);
};

const adjustCredits = (command: Cmd<'AdjustCredits'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  const reason = command.reason.trim();
  if (!reason) throw errors.reasonRequired();
  // A retry of an adjustment made already is answered as made, whatever the balance is now.
  if (command.adjustmentId && state.adjustmentIds.has(command.adjustmentId)) return [];
  // An admin's own account is adjusted by another admin.
  if (state.userId !== null && command.adminId === state.userId) throw errors.selfAdjustment();
  if (!Number.isSafeInteger(command.amount) || command.amount === 0) {
    throw errors.invalidAmount('The amount must be a whole number other than 0');
  }
  if (Math.abs(command.amount) > MAX_ADJUSTMENT) {
    throw errors.invalidAmount(`An adjustment is at most ${MAX_ADJUSTMENT} credits`);
  }
  // The admin decided on the balance they saw: another balance now is another decision.
  if (command.expectedBalance !== undefined && command.expectedBalance !== state.balance) {
    throw errors.balanceChanged(command.expectedBalance, state.balance);
  }
  if (command.amount < 0 && -command.amount > state.balance) {
    throw errors.insufficientCredits(-command.amount, state.balance);
  }
  return withinCeiling(state, [
    {
      type: 'CreditsAdjusted',
      data: {
        amount: command.amount,
        reason,
        adminId: command.adminId,
        ...(command.adjustmentId ? { adjustmentId: command.adjustmentId } : {}),
        // A deduction takes zero-value credits first, and says which it took.
        ...(command.amount < 0 ? { lots: deductionLots(state.lots, -command.amount) } : {}),
      },
    },
  ]);
};

/** A refund's money as Stripe reports it: a part of what was paid, in whole minor units. */
const requireRefundOfPaid = (refund: { refundedMinor: number; paidMinor: number }) => {
  if (
    !Number.isSafeInteger(refund.paidMinor) ||
    !Number.isSafeInteger(refund.refundedMinor) ||
    refund.paidMinor <= 0 ||
    refund.refundedMinor < 0 ||
    refund.refundedMinor > refund.paidMinor
  )
    throw errors.invalidRefund();
};

/**
 * The money of a refund, whether or not a credit moves: only what the payment's refunded total
 * grew by since the highest one recorded, so a redelivery (or a late, smaller total) records
 * nothing and a payment's `PaymentRefunded` amounts add up to its refunded total.
 */
const refundMoney = (
  state: CreditAccount,
  refund: CreditEventOf<'PurchaseRefundPending'>['data'],
  invoice?: { invoiceId: string; subscriptionId: string },
): CreditEvent[] => {
  const recorded = state.refundedMinor[refund.paymentIntentId] ?? 0;
  if (refund.refundedMinor <= recorded) return [];
  const taxed = state.paymentTaxes[invoice?.invoiceId ?? refund.paymentIntentId];
  return [
    {
      type: 'PaymentRefunded',
      data: {
        paymentIntentId: refund.paymentIntentId,
        chargeId: refund.chargeId,
        amountMinor: refund.refundedMinor - recorded,
        refundedMinor: refund.refundedMinor,
        currency: refund.currency,
        ...invoice,
        ...(taxed
          ? {
              tax: {
                ...taxed.tax,
                amountMinor:
                  taxRefunded(taxed, refund.refundedMinor) - taxRefunded(taxed, recorded),
              },
            }
          : {}),
      },
    },
  ];
};

/**
 * The tax that a payment's refunds have given back once its refunded total is `refundedMinor`:
 * the tax's share of it, rounded down, so that a full refund gives back exactly all the tax (each
 * refund records what this grew by).
 */
const taxRefunded = ({ paidMinor, tax }: TaxedPayment, refundedMinor: number) =>
  refundedMinor >= paidMinor
    ? tax.amountMinor
    : Number((BigInt(tax.amountMinor) * BigInt(refundedMinor)) / BigInt(paidMinor));

const refundPurchase = (command: Cmd<'RefundPurchase'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  const { type: _type, ...refund } = command;
  requireRefundOfPaid(refund);
  // The money first, whether or not a credit moves.
  const money = refundMoney(state, refund);
  const purchase = [...state.purchases.values()].find(
    (p) => p.paymentIntentId === command.paymentIntentId,
  );
  if (purchase) return [...money, ...reversalOf(purchase, refund, state)];
  // The purchase is not here yet (Stripe keeps no order): remember the refund for it.
  const known = state.pendingRefunds[command.paymentIntentId];
  if (known && known.refundedMinor >= refund.refundedMinor) return money;
  return [...money, { type: 'PurchaseRefundPending', data: refund }];
};

const recordPaymentRefund = (
  command: Cmd<'RecordPaymentRefund'>,
  state: CreditAccount,
): CreditEvent[] => {
  // A closed account too: the money went back whatever became of the credits.
  if (state.status === 'unopened') throw errors.userNotFound();
  const { type: _type, invoiceId, subscriptionId, period, ...refund } = command;
  requireRefundOfPaid(refund);
  // Only the payment of a month granted here is this account's money: an invoice we refused and
  // gave back (a second subscription, an ended one) was never booked, nor is its refund.
  if (!state.grantedMonths.includes(monthKey(subscriptionId, period)))
    throw errors.unknownPayment(invoiceId, period);
  // The month's credits are kept: a subscription refund moves money, never credits.
  return refundMoney(state, refund, { invoiceId, subscriptionId });
};

const startSubscriptionCheckout = (
  command: Cmd<'StartSubscriptionCheckout'>,
  state: CreditAccount,
): CreditEvent[] => {
  requireOpen(state);
  requireNoOtherSubscription(state, null);
  const open = state.pendingCheckout;
  if (open?.sessionId === command.sessionId) return [];
  if (open && new Date(open.expiresAt) > command.now) throw errors.checkoutInProgress(open);
  const { type: _type, now: _now, ...data } = command;
  return [{ type: 'SubscriptionCheckoutStarted', data }];
};

const closeSubscriptionCheckout = (
  command: Cmd<'CloseSubscriptionCheckout'>,
  state: CreditAccount,
): CreditEvent[] =>
  state.pendingCheckout?.sessionId === command.sessionId
    ? [
        {
          type: 'SubscriptionCheckoutClosed',
          data: { sessionId: command.sessionId, outcome: command.outcome },
        },
      ]
    : [];

const changePlan = (command: Cmd<'ChangePlan'>, state: CreditAccount): CreditEvent[] => {
  requireOpen(state);
  const subscription = state.subscription;
  if (subscription?.status !== 'active') throw errors.noActiveSubscription();
  if (!command.tier) throw errors.invalidTier();
  if (command.tier.tierId === subscription.tierId) throw errors.samePlan(subscription.tierName);
  return [
    {
      type: 'SubscriptionPlanChanged',
      data: {
        fromTierId: subscription.tierId,
        tierId: command.tier.tierId,
        tierName: command.tier.tierName,
        creditsPerMonth: command.tier.creditsPerMonth,
        effectiveFrom: subscription.nextRenewalDate,
      },
    },
  ];
};

const cancelSubscription = (
  command: Cmd<'CancelSubscription'>,
  state: CreditAccount,
): CreditEvent[] => {
  requireOpen(state);
  const subscription = state.subscription;
  if (subscription?.status === 'cancelled') return [];
  if (subscription?.status !== 'active') throw errors.noActiveSubscription();
  return [
    {
      type: 'SubscriptionCancelled',
      data: { reason: command.reason, accessUntil: subscription.nextRenewalDate },
    },
  ];
};

const endSubscription = (command: Cmd<'EndSubscription'>, state: CreditAccount): CreditEvent[] =>
  state.status === 'open' && state.subscription
    ? [{ type: 'SubscriptionEnded', data: { reason: command.reason } }]
    : [];

const closeAccount = (_command: Cmd<'CloseAccount'>, state: CreditAccount): CreditEvent[] => {
  if (state.status === 'unopened') throw errors.userNotFound();
  if (state.status === 'closed') return [];
  const events: CreditEvent[] = [];
  if (state.subscription) {
    events.push({ type: 'SubscriptionEnded', data: { reason: 'account_deleted' } });
  }
  if (state.balance > 0) {
    events.push({
      type: 'CreditsForfeited',
      data: { amount: state.balance, reason: 'account_deleted' },
    });
  }
  events.push({ type: 'CreditAccountClosed', data: { reason: 'account_deleted' } });
  return events;
};

export const decide = (command: CreditCommand, state: CreditAccount): CreditEvent[] => {
  switch (command.type) {
    case 'OpenAccount':
      return openAccount(command, state);
    case 'GrantFreeAllotment':
      return grantFreeAllotment(command, state);
    case 'GrantCredits':
      return grantCredits(command, state);
    case 'ActivateSubscription':
      return activateSubscription(command, state);
    case 'RefreshMonthlyCredits':
      return refreshMonthlyCredits(command, state);
    case 'GrantMonthlyCredits':
      return grantMonthlyCredits(command, state);
    case 'SpendCredits':
      return spendCredits(command, state);
    case 'RefundSpend':
      return refundSpend(command, state);
    case 'AdjustCredits':
      return adjustCredits(command, state);
    case 'RefundPurchase':
      return refundPurchase(command, state);
    case 'RecordPaymentRefund':
      return recordPaymentRefund(command, state);
    case 'OpenDispute':
      return openDispute(command, state);
    case 'CloseDispute':
      return closeDispute(command, state);
    case 'StartSubscriptionCheckout':
      return startSubscriptionCheckout(command, state);
    case 'CloseSubscriptionCheckout':
      return closeSubscriptionCheckout(command, state);
    case 'ChangePlan':
      return changePlan(command, state);
    case 'CancelSubscription':
      return cancelSubscription(command, state);
    case 'EndSubscription':
      return endSubscription(command, state);
    case 'CloseAccount':
      return closeAccount(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown credit command ${JSON.stringify(exhaustive)}`);
    }
  }
};
