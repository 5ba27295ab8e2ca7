import {
  type Actor,
  type AuditEntry,
  type LedgerExplorerPage,
  type LedgerExplorerQuery,
  streamDecoders,
} from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import { shownEmail, streamId, streams } from '@astra/ledger';
import { CREDIT_STREAMS, CreditBooks, occurredAtOf } from '@astra/projections';

/**
 * The most events of the log one explorer page looks at (credit events of the filtered streams
 * and types, before the actor and time filters). A page that reaches it without filling up ends
 * early with `next` set to the last event it looked at, and the client asks again from there: a
 * rare filter over a long log costs many short requests, never one long one.
 */
export const EXPLORER_SCAN_LIMIT = 10_000;

/** Page size of the explorer's reads of the log when it checks actor or time itself. */
const READ_BATCH = 500;

/** Who acted, from an event's metadata (no actor: the system). */
export const actorKindOf = (recorded: RecordedEvent): 'user' | 'admin' | 'system' | 'stripe' => {
  const actor = recorded.metadata.actor as Actor | undefined;
  if (!actor) return 'system';
  if (actor.kind === 'user') return actor.role === 'admin' ? 'admin' : 'user';
  return actor.kind;
};

/** The admin (or user) who acted, when a user did. */
export const actingUserOf = (recorded: RecordedEvent): string | null => {
  const actor = recorded.metadata.actor as Actor | undefined;
  return actor?.kind === 'user' ? actor.userId : null;
};

/**
 * E-mails from the user streams' registrations (`UserRegistered`, the first event of
 * `user-{id}`), read once per user per request; `erased` for a user whose data is erased.
 */
export class EmailBook {
  private readonly known = new Map<string, Promise<string | null>>();
  constructor(private readonly store: EventStore) {}

  of(userId: string): Promise<string | null> {
    let email = this.known.get(userId);
    if (!email) {
      email = this.read(userId);
      this.known.set(userId, email);
    }
    return email;
  }

  private async read(userId: string) {
    for await (const event of this.store.readStream(streams.user(userId))) {
      const registered = streamDecoders.user(event);
      if (registered.type === 'UserRegistered') return shownEmail(registered.data.email);
      // Registration is the stream's first event: a stream that starts otherwise names none.
      return null;
    }
    return null;
  }

  /** The e-mails of those of the users who registered (for `CreditBooks`), by user. */
  async emailsOf(userIds: Iterable<string>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    await Promise.all(
      [...new Set(userIds)].map(async (userId) => {
        const email = await this.of(userId);
        if (email !== null) found.set(userId, email);
      }),
    );
    return found;
  }
}

/** The filters of an explorer request that are checked on each event (beyond the log's). */
const matcherOf = (query: LedgerExplorerQuery) => {
  const from = query.from ? Date.parse(query.from) : null;
  const to = query.to ? Date.parse(query.to) : null;
  const types = query.type?.length ? new Set<string>(query.type) : null;
  return (recorded: RecordedEvent) => {
    if (types && !types.has(recorded.type)) return false;
    if (query.actor && actorKindOf(recorded) !== query.actor) return false;
    if (from !== null || to !== null) {
      const at = Date.parse(occurredAtOf(recorded));
      if (from !== null && at < from) return false;
      if (to !== null && at >= to) return false;
    }
    return true;
  };
};

/**
 * `GET /api/admin/ledger`: credit events from the log, oldest first, after position `after`,
 * filtered by type, actor, user and time (`from` ≤ occurredAt < `to`), `limit` at most.
 *
 * - Which events: the log read forwards, filtered in the store by stream (`credits-`) and type;
 *   for one user, that user's credit stream. Actor and time are checked here, on each event's
 *   metadata.
 * - The work per page is bounded: it looks at `EXPLORER_SCAN_LIMIT` events at most, and a page
 *   cut short there answers with `next` (possibly with no items) so the client goes on.
 * - `next`: the last item's position when another match follows the page (it reads one past
 *   it), the last event looked at when the scan limit cut it, null when nothing more matches.
 * - Each item's balance after it, lot values and money come from replaying the account's credit
 *   stream up to that event (`CreditBooks`, once per account per request); e-mails come from the
 *   user streams' registrations.
 */
export async function explorePage(
  store: EventStore,
  query: LedgerExplorerQuery,
  { scanLimit = EXPLORER_SCAN_LIMIT }: { scanLimit?: number } = {},
): Promise<LedgerExplorerPage> {
  const after = query.after ? BigInt(query.after) : 0n;
  const matches = matcherOf(query);
  const emails = new EmailBook(store);

  if (query.userId) {
    // One account: its own stream holds every event the page can show, and its replay.
    const books = new CreditBooks();
    const picked: RecordedEvent[] = [];
    const replayedEntries: AuditEntry[] = [];
    let scanned = 0;
    let last: bigint | null = null;
    let cut = false;
    const stream = streams.credits(query.userId);
    const pending: RecordedEvent[] = [];
    for await (const recorded of store.readStream(stream)) {
      pending.push(recorded);
      if (recorded.position <= after) continue;
      scanned++;
      last = recorded.position;
      if (matches(recorded)) picked.push(recorded);
      // One match past the page tells whether another page follows.
      if (picked.length > query.limit || scanned === scanLimit) {
        cut = true;
        break;
      }
    }
    const full = picked.length > query.limit;
    if (full) picked.pop();
    const wanted = new Set(picked.map((e) => e.id));
    const actors = picked.map(actingUserOf).filter((id): id is string => id !== null);
    for (const [userId, email] of await emails.emailsOf([query.userId, ...actors])) {
      books.learnEmail(userId, email);
    }
    for (const recorded of pending) {
      const replayed = books.apply(streamDecoders.credits(recorded));
      if (replayed && wanted.has(recorded.id)) replayedEntries.push(books.entryOf(replayed));
    }
    return {
      items: replayedEntries,
      next: cut ? String(full ? picked.at(-1)!.position : last) : null,
    };
  }

  const picked: RecordedEvent[] = [];
  let scanned = 0;
  let last: bigint | null = null;
  let cut = false;
  // Without a filter checked here, every event read is an item: read no more than a page.
  const checkedHere =
    query.actor !== undefined || query.from !== undefined || query.to !== undefined;
  for await (const recorded of store.readAll({
    from: after,
    batch: checkedHere ? READ_BATCH : query.limit + 1,
    filter: { ...CREDIT_STREAMS, ...(query.type?.length ? { types: query.type } : {}) },
  })) {
    scanned++;
    last = recorded.position;
    if (matches(recorded)) picked.push(recorded);
    // One match past the page tells whether another page follows.
    if (picked.length > query.limit || scanned === scanLimit) {
      cut = true;
      break;
    }
  }
  const full = picked.length > query.limit;
  if (full) picked.pop();
  const items = await auditEntriesOf(store, picked, emails);
  return { items, next: cut ? String(full ? picked.at(-1)!.position : last) : null };
}

/**
 * Audit entries of credit events from any accounts: each account's stream is replayed once, up
 * to the last of its events asked for.
 */
export async function auditEntriesOf(
  store: EventStore,
  events: readonly RecordedEvent[],
  emails = new EmailBook(store),
): Promise<AuditEntry[]> {
  const byAccount = new Map<string, Map<string, number>>();
  events.forEach((recorded, index) => {
    const userId = streamId(recorded.stream, 'credits');
    if (userId === null) return;
    const wanted = byAccount.get(userId) ?? new Map<string, number>();
    byAccount.set(userId, wanted);
    wanted.set(recorded.id, index);
  });
  const books = new CreditBooks();
  const actors = events.map(actingUserOf).filter((id): id is string => id !== null);
  for (const [userId, email] of await emails.emailsOf([...byAccount.keys(), ...actors])) {
    books.learnEmail(userId, email);
  }
  const entries: (AuditEntry | undefined)[] = new Array(events.length);
  await Promise.all(
    [...byAccount].map(async ([userId, wanted]) => {
      // Read first, then replayed in one go: `CreditBooks` changes an account in place, and its
      // entry is taken right after each event.
      const stream: RecordedEvent[] = [];
      let left = wanted.size;
      for await (const recorded of store.readStream(streams.credits(userId))) {
        stream.push(recorded);
        if (wanted.has(recorded.id) && --left === 0) break;
      }
      for (const recorded of stream) {
        const replayed = books.apply(streamDecoders.credits(recorded));
        const index = wanted.get(recorded.id);
        if (replayed && index !== undefined) entries[index] = books.entryOf(replayed);
      }
    }),
  );
  return entries.filter((entry): entry is AuditEntry => entry !== undefined);
}
