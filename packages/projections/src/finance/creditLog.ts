import {
  type Actor,
  type AuditEntry,
  type CreditEvent,
  type Decoded,
  streamDecoders,
  type UserEvent,
} from '@astra/contracts';
import type { EventStore, ReadAllFilter, RecordedEvent } from '@astra/event-store';
import {
  type AccountMoney,
  auditEntryOf,
  bookMoney,
  initialAccountMoney,
  type LoggedEvent,
  type MoneyEffect,
  shownEmail,
  streamId,
} from '@astra/ledger';

/**
 * The credit ledger replayed from the event log, in global order: every credit event with the
 * account's money after it, and the e-mails the user streams named so far. Exports, reports, the
 * explorer, balances as of an instant and `ledger:verify` are all folds over these books, never
 * over the read models.
 */
export interface ReplayedCreditEvent {
  recorded: Decoded<CreditEvent>;
  userId: string;
  /** The account after the event (the replay's own, changed by later events: read it now). */
  account: AccountMoney;
  effect: MoneyEffect;
  /** The signed change of the balance. */
  credits: number;
}

/** What the books read of the log: credit events, and users' registrations (their e-mails). */
export type BooksEvent =
  | Decoded<CreditEvent>
  | Decoded<Extract<UserEvent, { type: 'UserRegistered' }>>;

/** The credit accounts' streams (`readAll`'s filter): a replay of money reads only these. */
export const CREDIT_STREAMS: ReadAllFilter = { streamPrefixes: ['credits-'] };
/** The streams of the money: the accounts', and Stripe's balance (fees, payouts). */
export const MONEY_STREAMS: ReadAllFilter = { streamPrefixes: ['credits-', 'stripe-balance'] };
/** The streams whose events `booksEventOf` takes: the accounts', and the users' (their e-mail). */
export const BOOKS_STREAMS: ReadAllFilter = { streamPrefixes: ['credits-', 'user-'] };
/** The journal's streams: the books', and Stripe's balance (its payouts and fees). */
export const JOURNAL_STREAMS: ReadAllFilter = {
  streamPrefixes: ['credits-', 'user-', 'stripe-balance'],
};

/**
 * An event of the log as the books read it, decoded (upcast and parsed): a `credits-` stream's
 * event, or a user's registration; null for any other event (not read, so not decoded).
 */
export const booksEventOf = (recorded: RecordedEvent): BooksEvent | null => {
  if (recorded.stream.startsWith('credits-')) return streamDecoders.credits(recorded);
  if (recorded.stream.startsWith('user-') && recorded.type === 'UserRegistered') {
    const event = streamDecoders.user(recorded);
    if (event.type === 'UserRegistered') return event;
  }
  return null;
};

/**
 * The books a replay keeps: every account's money, and who each user's e-mail was.
 *
 * Remembering spends for their refunds: the money fold keeps what each of an account's last 100
 * spends took, to give it back if the spend is refunded. Over a whole log that is most of a
 * replay's memory (a million events of ten thousand accounts: hundreds of megabytes), and almost
 * none of it is ever used. So books for a whole log (`forLog`) first read the log's
 * `SpendRefunded` events (a read by type, which walks only those) and remember only the spends a
 * refund names. A refund the first read did not see (appended since) finds its spend again by
 * replaying its own stream up to it (`missesSpend`, then `restoreSpend`). Books without it
 * (`new CreditBooks()`, for one stream) remember every spend as the fold does.
 *
 * The books stay exactly the fold's: a spend is looked up only by its refund, and a refund comes
 * while its spend is among the account's last 100 (the decider refuses older ones), where the fold
 * keeps it whatever else was forgotten.
 */
export class CreditBooks {
  readonly accounts = new Map<string, AccountMoney>();
  private readonly emails = new Map<string, string>();

  constructor(
    private readonly store: EventStore | null = null,
    /** The spends that a refund names; null: remember every spend. */
    private readonly refunded: Set<string> | null = null,
  ) {}

  /** Books for a replay of the whole log (see the class). */
  static async forLog(store: EventStore): Promise<CreditBooks> {
    const refunded = new Set<string>();
    const filter = { ...CREDIT_STREAMS, types: ['SpendRefunded'] };
    for await (const recorded of store.readAll({ batch: 5_000, filter })) {
      const event = streamDecoders.credits(recorded);
      if (event.type === 'SpendRefunded') refunded.add(event.data.spendId);
    }
    return new CreditBooks(store, refunded);
  }

  readonly emailOf = (userId: string): string | null => this.emails.get(userId) ?? null;

  /** Names the e-mail of `userId` (its registration's, read elsewhere). */
  learnEmail(userId: string, email: string) {
    this.emails.set(userId, email);
  }

  private readonly remembers = (spendId: string) => this.refunded?.has(spendId) ?? true;

  /** The account of `userId`, opened empty when the books have not seen it. */
  account(userId: string): AccountMoney {
    let account = this.accounts.get(userId);
    if (!account) {
      account = initialAccountMoney();
      this.accounts.set(userId, account);
    }
    return account;
  }

  /** Books one (decoded) credit event into the account of `userId`; what it did to the money. */
  book(userId: string, event: Decoded<CreditEvent>): MoneyEffect {
    return bookMoney(this.account(userId), event, {
      remembers: this.remembers,
      at: occurredAtOf(event),
    });
  }

  /** Whether `event` refunds a spend these books did not remember: `restoreSpend` it first. */
  missesSpend(event: BooksEvent): boolean {
    return (
      this.refunded !== null &&
      event.type === 'SpendRefunded' &&
      !this.refunded.has(event.data.spendId)
    );
  }

  /** Finds what the refunded spend took by replaying its stream up to the refund. */
  async restoreSpend(recorded: BooksEvent) {
    if (recorded.type !== 'SpendRefunded') return;
    const { spendId } = recorded.data;
    this.refunded?.add(spendId);
    const userId = streamId(recorded.stream, 'credits');
    const account = userId === null ? undefined : this.accounts.get(userId);
    if (!account || !this.store) return;
    const replayed = initialAccountMoney();
    for await (const event of this.store.readStream(recorded.stream)) {
      if (event.revision >= recorded.revision) break;
      bookMoney(replayed, streamDecoders.credits(event), { at: occurredAtOf(event) });
    }
    const took = replayed.spends.get(spendId);
    if (took) account.spends.set(spendId, took);
  }

  /**
   * Applies one event of the log: a user's registration names their e-mail; a credit event is
   * booked and comes back replayed; anything else is null. (Call `missesSpend` first.)
   */
  apply(recorded: BooksEvent): ReplayedCreditEvent | null {
    const stream = recorded.stream;
    if (recorded.type === 'UserRegistered') {
      // An erased user's registration names no e-mail: the books show `erased` and the id.
      this.emails.set(stream.slice(5), shownEmail(recorded.data.email));
      return null;
    }
    const userId = streamId(stream, 'credits');
    if (userId === null) return null;
    const account = this.account(userId);
    const balanceBefore = account.balance;
    const effect = this.book(userId, recorded);
    return { recorded, userId, account, effect, credits: account.balance - balanceBefore };
  }

  /** A replayed credit event as the audit and the exports show it. */
  entryOf(replayed: ReplayedCreditEvent): AuditEntry {
    return auditEntryOf(
      loggedEventOf(replayed.recorded),
      replayed.userId,
      replayed.recorded,
      replayed.effect,
      { credits: replayed.credits, balanceAfter: replayed.account.balance },
      this.emailOf,
    );
  }
}

/** When an event happened (its metadata's `occurredAt`; the store's time on events without one). */
export const occurredAtOf = (recorded: RecordedEvent): string => {
  const occurredAt = recorded.metadata.occurredAt;
  return typeof occurredAt === 'string' ? occurredAt : recorded.recordedAt.toISOString();
};

export const loggedEventOf = (recorded: RecordedEvent): LoggedEvent => {
  const { actor, correlationId } = recorded.metadata as { actor?: Actor; correlationId?: string };
  return {
    position: recorded.position,
    occurredAt: occurredAtOf(recorded),
    actor: actor ?? null,
    correlationId: correlationId ?? null,
  };
};

/**
 * Events per query of a replay. Small pages keep the events short-lived: a page's events die
 * young, before the garbage collector moves them out of the young generation (pages of 5,000
 * lived long enough to be promoted, and the old generation's collections took a third of an
 * export's time).
 */
export const READ_BATCH = 1_000;
