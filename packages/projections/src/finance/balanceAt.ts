import type { MoneyAmount, TotalBalanceAt, UserBalanceAt } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import {
  type AccountMoney,
  bookMoney,
  type CreditEvent,
  deferredOf,
  initialAccountMoney,
  lotTotals,
  streamId,
  streams,
} from '@astra/ledger';
import { CreditBooks, occurredAtOf, readLogAhead } from './creditLog.ts';

/**
 * Balances as of an instant, by replaying credit streams (never the read models).
 *
 * An account's balance as of `at` is its stream replayed up to and including its last event that
 * happened at or before `at` (`occurredAt ≤ at`): the balance after that event, as its history
 * shows it. The replay stops at the stream's first event after `at` (an account's events are taken
 * in stream order, so a later event that a clock put a moment earlier does not count).
 */

/** `occurredAt ≤ at`: as text for the ledger's canonical form, else as instants. */
const atOrBefore = (at: string) => {
  const atMs = Date.parse(at);
  return (occurredAt: string) =>
    occurredAt.length === 24 && occurredAt.charCodeAt(23) === 90 /* Z */
      ? occurredAt <= at
      : Date.parse(occurredAt) <= atMs;
};

/** Amounts by currency, currencies in alphabetical order (a stable answer). */
const sortedByCurrency = (amounts: readonly MoneyAmount[]) =>
  [...amounts].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));

/** Sums amounts into `into`, by currency. */
const addInto = (into: Map<string, number>, amounts: readonly MoneyAmount[]) => {
  for (const { currency, minor } of amounts) into.set(currency, (into.get(currency) ?? 0) + minor);
};

const amountsOf = (sums: Map<string, number>): MoneyAmount[] =>
  sortedByCurrency(
    [...sums].filter(([, minor]) => minor !== 0).map(([currency, minor]) => ({ currency, minor })),
  );

/** Whether the user has a user stream (someone who signed in at least once). */
export async function userExists(store: EventStore, userId: string): Promise<boolean> {
  for await (const _event of store.readStream(streams.user(userId))) return true;
  return false;
}

/**
 * Replays of long credit streams, kept: the log never changes, so an account replayed up to a
 * revision is the same forever, and a later question starts from the last kept replay whose
 * events all happened at or before its instant (then reads only the rest of the stream). A
 * stream is kept every `SNAPSHOT_EVERY` events and where a replay ends; at most `SNAPSHOTS`
 * replays in all (tens of megabytes at worst), the least recently asked accounts' dropped first.
 */
const SNAPSHOT_EVERY = 1_000;
const SNAPSHOTS = 1_000;

interface Snapshot {
  /** Events replayed: the stream's next revision. */
  events: number;
  /** The newest `occurredAt` among them (ms): the replay holds for any instant at or after it. */
  latest: number;
  position: bigint | null;
  /** A copy, never booked into. */
  account: AccountMoney;
}

class Snapshots {
  private readonly byAccount = new Map<string, Snapshot[]>();
  private count = 0;

  /** The longest kept replay that holds at `atMs`. */
  before(userId: string, atMs: number): Snapshot | undefined {
    const kept = this.byAccount.get(userId);
    if (!kept) return undefined;
    // Most recently used last.
    this.byAccount.delete(userId);
    this.byAccount.set(userId, kept);
    return kept.findLast((snapshot) => snapshot.latest <= atMs);
  }

  keep(userId: string, snapshot: Omit<Snapshot, 'account'>, account: AccountMoney) {
    const kept = this.byAccount.get(userId) ?? [];
    if (kept.some((s) => s.events === snapshot.events)) return;
    kept.push({ ...snapshot, account: structuredClone(account) });
    kept.sort((a, b) => a.events - b.events);
    this.byAccount.set(userId, kept);
    this.count++;
    for (const [oldest, dropped] of this.byAccount) {
      if (this.count <= SNAPSHOTS || oldest === userId) break;
      this.byAccount.delete(oldest);
      this.count -= dropped.length;
    }
  }
}

const snapshotsByStore = new WeakMap<EventStore, Snapshots>();

/**
 * One account as of `at` (canonical ISO), replaying only its `credits-{id}` stream (from a kept
 * replay of it when there is one). The caller checks that the user exists: a user without a
 * credit stream holds nothing.
 */
export async function userBalanceAt(
  store: EventStore,
  userId: string,
  at: string,
): Promise<UserBalanceAt> {
  const include = atOrBefore(at);
  let snapshots = snapshotsByStore.get(store);
  if (!snapshots) {
    snapshots = new Snapshots();
    snapshotsByStore.set(store, snapshots);
  }
  const start = snapshots.before(userId, Date.parse(at));
  const account = start ? structuredClone(start.account) : initialAccountMoney();
  let position = start?.position ?? null;
  let events = start?.events ?? 0;
  let latest = start?.latest ?? Number.NEGATIVE_INFINITY;
  let kept = events;
  const from = BigInt(events);
  for await (const recorded of store.readStream(streams.credits(userId), { from })) {
    const occurredAt = occurredAtOf(recorded);
    if (!include(occurredAt)) break;
    bookMoney(account, { type: recorded.type, data: recorded.data } as CreditEvent);
    position = recorded.position;
    events++;
    latest = Math.max(latest, Date.parse(occurredAt));
    if (events % SNAPSHOT_EVERY === 0) {
      snapshots.keep(userId, { events, latest, position }, account);
      kept = events;
    }
  }
  // Where a long replay ended, for the next question about a later instant.
  if (events >= SNAPSHOT_EVERY && events - kept >= SNAPSHOT_EVERY / 10)
    snapshots.keep(userId, { events, latest, position }, account);
  return {
    userId,
    at,
    balance: account.balance,
    lots: lotTotals(account.lots),
    deferred: sortedByCurrency(deferredOf(account)),
    position: position === null ? null : String(position),
    events,
  };
}

/** Every account as of `at` (canonical ISO), replaying the whole log. */
export async function totalBalanceAt(store: EventStore, at: string): Promise<TotalBalanceAt> {
  const include = atOrBefore(at);
  // Accounts whose stream has passed `at`: their later events are not replayed.
  const passed = new Set<string>();
  let position: bigint | null = null;
  const books = await CreditBooks.forLog(store);
  for await (const events of readLogAhead(store)) {
    for (const recorded of events) {
      const userId = streamId(recorded.stream, 'credits');
      if (userId === null || passed.has(userId)) continue;
      if (!include(occurredAtOf(recorded))) {
        passed.add(userId);
        continue;
      }
      if (books.missesSpend(recorded)) await books.restoreSpend(recorded);
      books.book(userId, recorded);
      if (position === null || recorded.position > position) position = recorded.position;
    }
  }
  let balance = 0;
  const deferred = new Map<string, number>();
  for (const account of books.accounts.values()) {
    balance += account.balance;
    if (account.values.size) addInto(deferred, deferredOf(account));
  }
  return {
    at,
    balance,
    accounts: books.accounts.size,
    deferred: amountsOf(deferred),
    position: position === null ? null : String(position),
  };
}
