import type { Actor, AuditEntry, CreditEvent, UserEvent } from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import {
  type AccountMoney,
  auditEntryOf,
  bookMoney,
  initialAccountMoney,
  type LoggedEvent,
  type MoneyEffect,
  streamId,
} from '@astra/ledger';

/**
 * The credit ledger replayed from the event log, in global order: every credit event with the
 * account's money after it, and the e-mails the user streams named so far. Exports, reports, the
 * explorer and balances as of an instant are all folds over this, never over the read models.
 */
export interface ReplayedCreditEvent {
  logged: LoggedEvent;
  userId: string;
  event: CreditEvent;
  /** The account after the event (the replay's own, changed by later events: read it now). */
  account: AccountMoney;
  effect: MoneyEffect;
  /** The signed change of the balance. */
  credits: number;
}

/** The books a replay keeps: every account's money, and who each user's e-mail was. */
export class CreditBooks {
  readonly accounts = new Map<string, AccountMoney>();
  private readonly emails = new Map<string, string>();

  readonly emailOf = (userId: string): string | null => this.emails.get(userId) ?? null;

  /** Applies one event of the log; a credit event comes back replayed, anything else as null. */
  apply(recorded: RecordedEvent): ReplayedCreditEvent | null {
    const stream = recorded.stream;
    if (stream.startsWith('user-')) {
      if (recorded.type === 'UserRegistered') {
        const data = recorded.data as Extract<UserEvent, { type: 'UserRegistered' }>['data'];
        this.emails.set(stream.slice(5), data.email);
      }
      return null;
    }
    const userId = streamId(stream, 'credits');
    if (userId === null) return null;
    // The log is the ledger's own: its events are trusted as written (old shapes upcast by the
    // folds' optional fields), not parsed again.
    const event = { type: recorded.type, data: recorded.data } as CreditEvent;
    let account = this.accounts.get(userId);
    if (!account) {
      account = initialAccountMoney();
      this.accounts.set(userId, account);
    }
    const balanceBefore = account.balance;
    const effect = bookMoney(account, event);
    return {
      logged: loggedEventOf(recorded),
      userId,
      event,
      account,
      effect,
      credits: account.balance - balanceBefore,
    };
  }

  /** A replayed credit event as the audit and the exports show it. */
  entryOf(replayed: ReplayedCreditEvent): AuditEntry {
    return auditEntryOf(
      replayed.logged,
      replayed.userId,
      replayed.event,
      { ...replayed.effect, credits: replayed.credits, balanceAfter: replayed.account.balance },
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
 * The whole log's credit events, replayed, in global order (the user streams' e-mails are taken
 * in passing).
 */
export async function* replayCreditLog(
  store: EventStore,
  books = new CreditBooks(),
): AsyncGenerator<ReplayedCreditEvent> {
  for await (const recorded of store.readAll({ batch: 5000 })) {
    const replayed = books.apply(recorded);
    if (replayed) yield replayed;
  }
}
