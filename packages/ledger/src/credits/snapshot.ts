import type {
  CreditAccount,
  PendingCheckout,
  PendingRefund,
  Purchase,
  RecentSpend,
  Subscription,
} from './credits.ts';
import type { CreditLot } from './lots.ts';

/**
 * A credit account as a snapshot keeps it (plain JSON): its sets as lists, its records as entry
 * lists (a `jsonb` object would come back with its keys in another order, and the decider reads
 * some records and maps in order), and an infinite refunded total (an old whole reversal) as null. An
 * account's purchases are most of a long account's state (every pack bought stays refundable),
 * so they are kept as `[grantId, paymentIntentId, granted, reversed]` rows, and `grantIds` keeps
 * only the grants that are not purchases (each purchase's grant id is one of them already).
 * A change to `CreditAccount` or to `evolve` takes a new `CREDIT_ACCOUNT_SNAPSHOT_VERSION`: the
 * snapshots of the old one are ignored and the streams replayed (and snapshotted again).
 */
export const CREDIT_ACCOUNT_SNAPSHOT_VERSION = 1;

export interface StoredCreditAccount {
  status: CreditAccount['status'];
  userId: string | null;
  balance: number;
  totalGranted: number;
  lots: CreditLot[];
  freeAllotmentGranted: boolean;
  /** The grant ids that are not purchases'. */
  otherGrantIds: string[];
  adjustmentIds: string[];
  purchases: [grantId: string, paymentIntentId: string | null, granted: number, reversed: number][];
  pendingRefunds: [string, PendingRefund][];
  refundedMinor: [string, number | null][];
  recentSpends: RecentSpend[];
  subscription: Subscription | null;
  pendingCheckout: PendingCheckout | null;
  grantedMonths: string[];
  endedSubscriptions: string[];
}

export const encodeCreditAccount = (account: CreditAccount): StoredCreditAccount => ({
  status: account.status,
  userId: account.userId,
  balance: account.balance,
  totalGranted: account.totalGranted,
  lots: [...account.lots],
  freeAllotmentGranted: account.freeAllotmentGranted,
  otherGrantIds: [...account.grantIds].filter((grantId) => !account.purchases.has(grantId)),
  adjustmentIds: [...account.adjustmentIds],
  purchases: [...account.purchases.values()].map((p) => [
    p.grantId,
    p.paymentIntentId,
    p.granted,
    p.reversed,
  ]),
  pendingRefunds: Object.entries(account.pendingRefunds),
  refundedMinor: Object.entries(account.refundedMinor).map(([paymentIntentId, minor]) => [
    paymentIntentId,
    Number.isFinite(minor) ? minor : null,
  ]),
  recentSpends: [...account.recentSpends],
  subscription: account.subscription,
  pendingCheckout: account.pendingCheckout,
  grantedMonths: [...account.grantedMonths],
  endedSubscriptions: [...account.endedSubscriptions],
});

export const decodeCreditAccount = (stored: StoredCreditAccount): CreditAccount => ({
  status: stored.status,
  userId: stored.userId,
  balance: stored.balance,
  totalGranted: stored.totalGranted,
  lots: stored.lots,
  freeAllotmentGranted: stored.freeAllotmentGranted,
  // A set is asked only whether it holds an id: the order of its ids does not matter.
  grantIds: new Set([...stored.purchases.map(([grantId]) => grantId), ...stored.otherGrantIds]),
  adjustmentIds: new Set(stored.adjustmentIds),
  purchases: new Map(
    stored.purchases.map(([grantId, paymentIntentId, granted, reversed]): [string, Purchase] => [
      grantId,
      { grantId, paymentIntentId, granted, reversed },
    ]),
  ),
  pendingRefunds: Object.fromEntries(stored.pendingRefunds),
  refundedMinor: Object.fromEntries(
    stored.refundedMinor.map(([paymentIntentId, minor]) => [
      paymentIntentId,
      minor ?? Number.POSITIVE_INFINITY,
    ]),
  ),
  recentSpends: stored.recentSpends,
  subscription: stored.subscription,
  pendingCheckout: stored.pendingCheckout,
  grantedMonths: stored.grantedMonths,
  endedSubscriptions: stored.endedSubscriptions,
});
