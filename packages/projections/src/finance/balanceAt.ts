import {
  type MoneyAmount,
  streamDecoders,
  type TotalBalanceAt,
  type UserBalanceAt,
} from '@astra/contracts';
import type { EventStore, SnapshotStore } from '@astra/event-store';
import {
  ACCOUNT_MONEY_VERSION,
  accountMoneyOf,
  bookMoney,
  deferredOf,
  initialAccountMoney,
  lotTotals,
  type StoredAccountMoney,
  storedAccountMoney,
  streamId,
  streams,
} from '@astra/ledger';
import { CREDIT_STREAMS, CreditBooks, occurredAtOf, READ_BATCH } from './creditLog.ts';

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
 * Long credit streams are replayed from snapshots (`snapshots`, beside the log): the log never
 * changes, so an account replayed up to a revision is the same forever. A question starts from the
 * latest snapshot whose events all happened at or before its instant, and reads only the rest of
 * the stream; a replay keeps a snapshot every `SNAPSHOT_EVERY` events of the stream (and where a
 * long one ends), for the next question, in this process or any other.
 */
export const SNAPSHOT_EVERY = 1_000;
const SNAPSHOT_KIND = 'credit-money';

/**
 * One account as of `at` (canonical ISO), replaying only its `credits-{id}` stream (from a kept
 * snapshot of it when there is one). The caller checks that the user exists: a user without a
 * credit stream holds nothing.
 */
export async function userBalanceAt(
  store: EventStore,
  snapshots: SnapshotStore,
  userId: string,
  at: string,
): Promise<UserBalanceAt> {
  const include = atOrBefore(at);
  const stream = streams.credits(userId);
  const start = await snapshots.latest<StoredAccountMoney>(
    stream,
    SNAPSHOT_KIND,
    ACCOUNT_MONEY_VERSION,
    { atOrBefore: at },
  );
  const account = start ? accountMoneyOf(start.state) : initialAccountMoney();
  let position = start?.position ?? null;
  let events = start ? Number(start.revision) + 1 : 0;
  // The newest `occurredAt` replayed (ms): the replay holds for any instant at or after it.
  let latest = start ? Date.parse(start.latestAt) : Number.NEGATIVE_INFINITY;
  let kept = events;
  const keep = () => {
    kept = events;
    // A record, not a step: a snapshot not kept is made again by the next replay.
    return snapshots
      .save(stream, SNAPSHOT_KIND, ACCOUNT_MONEY_VERSION, {
        revision: BigInt(events - 1),
        position: position!,
        latestAt: new Date(latest).toISOString(),
        state: storedAccountMoney(account),
      })
      .catch(() => {});
  };
  for await (const recorded of store.readStream(stream, { from: BigInt(events) })) {
    const occurredAt = occurredAtOf(recorded);
    if (!include(occurredAt)) break;
    bookMoney(account, streamDecoders.credits(recorded), { at: occurredAt });
    position = recorded.position;
    events++;
    latest = Math.max(latest, Date.parse(occurredAt));
    if (events % SNAPSHOT_EVERY === 0) await keep();
  }
  // Where a long replay ended, for the next question about a later instant.
  if (events >= SNAPSHOT_EVERY && events - kept >= SNAPSHOT_EVERY / 10) await keep();
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
  for await (const recorded of store.readAll({ batch: READ_BATCH, filter: CREDIT_STREAMS })) {
    const userId = streamId(recorded.stream, 'credits');
    if (userId === null || passed.has(userId)) continue;
    if (!include(occurredAtOf(recorded))) {
      passed.add(userId);
      continue;
    }
    const event = streamDecoders.credits(recorded);
    if (books.missesSpend(event)) await books.restoreSpend(event);
    books.book(userId, event);
    if (position === null || recorded.position > position) position = recorded.position;
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
