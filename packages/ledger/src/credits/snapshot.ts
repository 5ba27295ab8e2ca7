import type {
  CreditAccount,
  Dispute,
  PendingCheckout,
  PendingRefund,
  Purchase,
  RecentSpend,
  Subscription,
  TaxedPayment,
} from './account.ts';
import type { CreditLot } from './lots.ts';

/**
 * A credit account as a snapshot keeps it (plain JSON): its sets as lists, its records as entry
 * lists (a `jsonb` object would come back with its keys in another order, and the decider reads
 * some records and maps in order), and an infinite refunded total (an old whole reversal) as null.
 * An account's purchases are most of a long account's state (every pack bought stays
 * refundable), and most commands (spends) never read them: they are kept as one JSON text of
 * `[grantId, paymentIntentId, granted, reversed]` rows, read into a map only by the first command
 * that asks for a purchase (`LazyMap`). A cold spend on a long account then builds none of the
 * purchases' thousands of objects, and the garbage collector has none of them to copy while it runs.
 * A change to `CreditAccount` or to `evolve` takes a new `CREDIT_ACCOUNT_SNAPSHOT_VERSION`: the
 * snapshots of the old one are ignored and the streams replayed (and snapshotted again).
 */
export const CREDIT_ACCOUNT_SNAPSHOT_VERSION = 4;

type StoredPurchase = [
  grantId: string,
  paymentIntentId: string | null,
  granted: number,
  reversed: number,
];

export interface StoredCreditAccount {
  status: CreditAccount['status'];
  userId: string | null;
  balance: number;
  totalGranted: number;
  lots: CreditLot[];
  freeAllotmentGranted: boolean;
  grantIds: string[];
  adjustmentIds: string[];
  /** JSON text of `StoredPurchase` rows, in the order of purchase. */
  purchases: string;
  pendingRefunds: [string, PendingRefund][];
  refundedMinor: [string, number | null][];
  paymentTaxes: [string, TaxedPayment][];
  recentSpends: RecentSpend[];
  subscription: Subscription | null;
  pendingCheckout: PendingCheckout | null;
  grantedMonths: string[];
  endedSubscriptions: string[];
  disputes: [string, Dispute][];
}

export const encodeCreditAccount = (account: CreditAccount): StoredCreditAccount => ({
  status: account.status,
  userId: account.userId,
  balance: account.balance,
  totalGranted: account.totalGranted,
  lots: [...account.lots],
  freeAllotmentGranted: account.freeAllotmentGranted,
  grantIds: [...account.grantIds],
  adjustmentIds: [...account.adjustmentIds],
  purchases: JSON.stringify(
    [...account.purchases.values()].map(
      (p): StoredPurchase => [p.grantId, p.paymentIntentId, p.granted, p.reversed],
    ),
  ),
  pendingRefunds: Object.entries(account.pendingRefunds),
  refundedMinor: Object.entries(account.refundedMinor).map(([paymentIntentId, minor]) => [
    paymentIntentId,
    Number.isFinite(minor) ? minor : null,
  ]),
  paymentTaxes: Object.entries(account.paymentTaxes),
  recentSpends: [...account.recentSpends],
  subscription: account.subscription,
  pendingCheckout: account.pendingCheckout,
  grantedMonths: [...account.grantedMonths],
  endedSubscriptions: [...account.endedSubscriptions],
  disputes: Object.entries(account.disputes),
});

export const decodeCreditAccount = (stored: StoredCreditAccount): CreditAccount => ({
  status: stored.status,
  userId: stored.userId,
  balance: stored.balance,
  totalGranted: stored.totalGranted,
  lots: stored.lots,
  freeAllotmentGranted: stored.freeAllotmentGranted,
  grantIds: new Set(stored.grantIds),
  adjustmentIds: new Set(stored.adjustmentIds),
  purchases: purchasesOf(stored.purchases),
  pendingRefunds: Object.fromEntries(stored.pendingRefunds),
  refundedMinor: Object.fromEntries(
    stored.refundedMinor.map(([paymentIntentId, minor]) => [
      paymentIntentId,
      minor ?? Number.POSITIVE_INFINITY,
    ]),
  ),
  paymentTaxes: Object.fromEntries(stored.paymentTaxes),
  recentSpends: stored.recentSpends,
  subscription: stored.subscription,
  pendingCheckout: stored.pendingCheckout,
  grantedMonths: stored.grantedMonths,
  endedSubscriptions: stored.endedSubscriptions,
  disputes: Object.fromEntries(stored.disputes),
});

/** The purchases of a snapshot's text, read when first asked for. */
const purchasesOf = (text: string) =>
  new LazyMap(
    () =>
      new Map(
        (JSON.parse(text) as StoredPurchase[]).map(
          ([grantId, paymentIntentId, granted, reversed]): [string, Purchase] => [
            grantId,
            { grantId, paymentIntentId, granted, reversed },
          ],
        ),
      ),
  );

/**
 * A map made by `build` when it is first read (see `StoredCreditAccount`'s purchases); `build`
 * (and what it holds) is let go once it has run. A `build` that throws is thrown again by the next
 * read: the command handler takes that for a snapshot it cannot read and replays the log.
 */
export class LazyMap<K, V> implements ReadonlyMap<K, V> {
  private built: ReadonlyMap<K, V> | null = null;

  constructor(private build: (() => ReadonlyMap<K, V>) | null) {}

  private get map(): ReadonlyMap<K, V> {
    if (!this.built) {
      this.built = this.build!();
      this.build = null;
    }
    return this.built;
  }

  get size() {
    return this.map.size;
  }
  get(key: K) {
    return this.map.get(key);
  }
  has(key: K) {
    return this.map.has(key);
  }
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown) {
    for (const [key, value] of this.map) callback.call(thisArg, value, key, this);
  }
  entries() {
    return this.map.entries();
  }
  keys() {
    return this.map.keys();
  }
  values() {
    return this.map.values();
  }
  [Symbol.iterator]() {
    return this.map[Symbol.iterator]();
  }
}
