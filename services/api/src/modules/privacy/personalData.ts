import {
  type AuditEntry,
  type ExportedFeedback,
  type ExportedMessage,
  type ExportedPayment,
  type ExportedReading,
  type ExportedVoiceSession,
  type Me,
  PERSONAL_DATA_EXPORT_FORMAT,
  paymentReferencesSchema,
  type ReadingEvent,
  streamDecoders,
} from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import { streams } from '@astra/ledger';
import { CreditBooks, occurredAtOf, type ReadDb, type UsageLog } from '@astra/projections';
import type { AppDb } from '../../storage/appDatabase.ts';
import type { StoredMail } from '../mail/transport.ts';
import { readingViewOf } from '../readings/queries.ts';

/**
 * The right of access: everything held about one user, as one JSON document written piece by
 * piece (`GET /api/me/export`). Money comes from the log (their credit stream, folded as the
 * audit folds it); readings and feedback from their read models, a page at a time; voice
 * sessions from the streams of the readings that had one. Nothing holds the whole body.
 */

/** Rows read per query, and about how many characters go out per chunk. */
const READINGS_PER_PAGE = 500;
const CHUNK_CHARS = 64 * 1024;

export interface PersonalDataSources {
  store: EventStore;
  read: ReadDb;
  appDb: AppDb;
}

/** The user's credit stream, oldest first, each event with the balance and money after it. */
export async function* creditEventsOf(
  store: EventStore,
  userId: string,
  email: string,
): AsyncGenerator<AuditEntry> {
  const books = new CreditBooks();
  // Their own address only: an admin who acted on the account is named by id, not e-mail.
  books.learnEmail(userId, email);
  for await (const recorded of store.readStream(streams.credits(userId))) {
    const replayed = books.apply(streamDecoders.credits(recorded));
    if (replayed) yield books.entryOf(replayed);
  }
}

/** The money a credit event records, as a payment line; null when it moved none. */
export const paymentOf = (entry: AuditEntry): ExportedPayment | null => {
  if (!entry.money) return null;
  return {
    occurredAt: entry.occurredAt,
    kind: entry.money.minor < 0 ? 'refund' : 'payment',
    amountMinor: Math.abs(entry.money.minor),
    currency: entry.money.currency,
    eventType: entry.type,
    // Stripe's ids and the grant's: the cause's other fields are not about the payment.
    ...paymentReferencesSchema.parse(entry.causeFields),
  };
};

/** A reading's voice sessions from its stream's events, in the order they were requested. */
export const voiceSessionsOf = (
  events: readonly { event: ReadingEvent; at: string }[],
): ExportedVoiceSession[] => {
  const sessions = new Map<string, ExportedVoiceSession>();
  const change = (sessionId: string, fields: Partial<ExportedVoiceSession>) => {
    const session = sessions.get(sessionId);
    if (session) sessions.set(sessionId, { ...session, ...fields });
  };
  for (const { event, at } of events) {
    switch (event.type) {
      case 'VoiceSessionRequested':
        sessions.set(event.data.sessionId, {
          sessionId: event.data.sessionId,
          requestedAt: at,
          reactivation: event.data.reactivation,
          creditsCharged: event.data.creditsCharged,
          provider: null,
          startedAt: null,
          endedAt: null,
          endReason: null,
          failureReason: null,
          secondsUsed: null,
        });
        break;
      case 'VoiceSessionStarted':
        change(event.data.sessionId, {
          provider: event.data.provider,
          startedAt: event.data.startedAt,
        });
        break;
      case 'VoiceSessionFailed':
        change(event.data.sessionId, { failureReason: event.data.reason });
        break;
      case 'VoiceSessionEnded':
        change(event.data.sessionId, {
          endedAt: event.data.endedAt,
          endReason: event.data.reason,
          secondsUsed: event.data.secondsUsed,
        });
        break;
      default:
        break;
    }
  }
  return [...sessions.values()];
};

/** Whether a reading's row shows any voice session (only those streams are read again). */
const hadVoice = (row: UsageLog) => {
  const voice = row.voice ?? {};
  return Boolean(voice.current) || Object.keys(voice.outcomes ?? {}).length > 0;
};

async function voiceSessionsOfReading(store: EventStore, readingId: string) {
  const events: { event: ReadingEvent; at: string }[] = [];
  for await (const recorded of store.readStream(streams.reading(readingId))) {
    events.push({ event: streamDecoders.reading(recorded), at: occurredAtOf(recorded) });
  }
  return voiceSessionsOf(events);
}

/** Every reading of the user, oldest first, deleted ones too (their row is still held). */
export async function* readingsOf(
  { store, read }: PersonalDataSources,
  userId: string,
): AsyncGenerator<ExportedReading> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    let query = read.selectFrom('usage_logs').selectAll().where('user_id', '=', userId);
    if (after) {
      const { createdAt, id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '>', createdAt),
          eb.and([eb('created_at', '=', createdAt), eb('log_id', '>', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at')
      .orderBy('log_id')
      .limit(READINGS_PER_PAGE)
      .execute();
    for (const row of rows) {
      yield {
        ...readingViewOf(row),
        status: row.status,
        voiceSessions: hadVoice(row) ? await voiceSessionsOfReading(store, row.log_id) : [],
      };
    }
    const last = rows.at(-1);
    if (!last || rows.length < READINGS_PER_PAGE) return;
    after = { createdAt: new Date(last.created_at), id: last.log_id };
  }
}

export async function feedbackOf(read: ReadDb, userId: string): Promise<ExportedFeedback[]> {
  const rows = await read
    .selectFrom('feedback')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('feedback_id')
    .execute();
  return rows.map((row) => ({
    feedbackId: row.feedback_id,
    message: row.message,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** The messages to the user whose text the outbox still keeps, oldest first. */
export async function messagesOf(appDb: AppDb, userId: string): Promise<ExportedMessage[]> {
  const rows = await appDb
    .selectFrom('outbox')
    .selectAll()
    .where('user_id', '=', userId)
    .where('payload', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.flatMap((row) => {
    const mail = row.payload as StoredMail;
    if (!row.recipient) return [];
    return {
      kind: row.kind as ExportedMessage['kind'],
      to: row.recipient,
      subject: mail.subject,
      text: mail.text,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      sentAt: row.sent_at ? new Date(row.sent_at).toISOString() : null,
    };
  });
}

/** `,"name":[…]` of the items, in chunks of about `CHUNK_CHARS`. */
async function* arrayField(
  name: string,
  items: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<string> {
  let chunk = `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const item of items) {
    chunk += (first ? '' : ',') + JSON.stringify(item);
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}]`;
}

/**
 * The export's body (a `PersonalDataExport`), in chunks, in the schema's order. Payments are
 * the credit events that moved money: few, kept from the first pass to be written after it.
 */
export async function* personalDataJson(
  sources: PersonalDataSources,
  profile: Me,
  exportedAt: Date,
): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(PERSONAL_DATA_EXPORT_FORMAT)},"exportedAt":${JSON.stringify(
    exportedAt.toISOString(),
  )},"profile":${JSON.stringify(profile)}`;
  const payments: ExportedPayment[] = [];
  async function* creditEvents() {
    for await (const entry of creditEventsOf(sources.store, profile.id, profile.email)) {
      const payment = paymentOf(entry);
      if (payment) payments.push(payment);
      yield entry;
    }
  }
  yield* arrayField('creditEvents', creditEvents());
  yield* arrayField('payments', payments);
  yield* arrayField('readings', readingsOf(sources, profile.id));
  yield* arrayField('feedback', await feedbackOf(sources.read, profile.id));
  yield* arrayField('messages', await messagesOf(sources.appDb, profile.id));
  yield '}\n';
}
