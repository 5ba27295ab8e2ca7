import { type ReadingEvent, readingEventSchemas } from '@astra/contracts';
import { evolveVoice, initialVoice, type Voice, type VoiceEvent } from '@astra/ledger';
import { sql } from 'kysely';
import type { UsageLog } from '../schema.ts';
import { chunks, inCategory, occurredAt, type Projection } from './projection.ts';

type Row = Omit<UsageLog, 'created_at'> & { created_at: Date };

/**
 * A voice event folded into the row: the state by the ledger's own `evolveVoice`, and from it
 * the spec's columns and what the sweeps look for (a session under way, a refund owed).
 */
const applyVoice = (row: Row, event: VoiceEvent, at: Date): Row => {
  const voice: Voice = evolveVoice({ ...initialVoice(), ...row.voice }, event);
  const current = voice.current;
  return {
    ...row,
    voice,
    // Used: a session that connected (the spec's flag; the library marks such readings).
    voice_agent_used: voice.countedSessions > 0,
    voice_reactivation: voice.reactivations > 0,
    voice_credits_charged: voice.creditsCharged,
    voice_session_status: current?.phase ?? null,
    voice_requested_at:
      current?.phase === 'requested'
        ? event.type === 'VoiceSessionRequested'
          ? at
          : row.voice_requested_at
        : null,
    voice_ends_at: current?.phase === 'active' ? new Date(current.endsAt) : null,
    voice_refund_owed: voice.refundsOwed.length > 0,
  };
};

/** Applies a reading event to its row (the row belongs to this batch alone). */
const apply = (row: Row | undefined, event: ReadingEvent, at: Date): Row | undefined => {
  switch (event.type) {
    case 'ReadingRequested':
      return {
        log_id: event.data.readingId,
        user_id: event.data.userId,
        app_id: event.data.appId,
        app_name: event.data.appName,
        question: event.data.question,
        first_name: event.data.firstName,
        input_data: event.data.input,
        reading_result_id: event.data.readingId,
        reading_result_content: {},
        status: 'pending',
        credits_charged: event.data.creditsCharged,
        voice_agent_used: false,
        voice_reactivation: false,
        voice_credits_charged: 0,
        created_at: at,
        reading_revision: '-1',
        voice: initialVoice(),
        voice_session_status: null,
        voice_requested_at: null,
        voice_ends_at: null,
        voice_refund_owed: false,
      };
    case 'ReadingGenerated':
      return row && { ...row, status: 'completed', reading_result_content: event.data.result };
    case 'ReadingFailed':
      // Refunded already (older logs) or never paid: it charged nothing. Otherwise it keeps its
      // charge until `ReadingRefundSettled` (the recovery sweep looks for such rows).
      return (
        row && {
          ...row,
          status: 'failed',
          credits_charged:
            event.data.refunded || event.data.reason === 'insufficient_credits'
              ? 0
              : row.credits_charged,
        }
      );
    case 'ReadingRefundSettled':
      // Refunded, or its account closed (its credits forfeited): the reading charged nothing.
      return row && { ...row, credits_charged: 0 };
    case 'ReadingDeleted':
      return row && { ...row, status: 'deleted' };
    case 'VoiceSessionRequested':
    case 'VoiceSessionStarted':
    case 'VoiceSessionFailed':
    case 'VoiceSessionEnded':
    case 'VoiceRefundSettled':
      return row && applyVoice(row, event, at);
    default: {
      const exhaustive: never = event;
      throw new Error(`Unknown reading event ${JSON.stringify(exhaustive)}`);
    }
  }
};

/**
 * `usage_logs`: the library, one row per reading (the spec's table). Deleted readings keep their
 * row with status 'deleted'; the library shows 'completed' ones.
 */
export const usageLogsProjection: Projection = {
  name: 'usage_logs',
  tables: ['usage_logs'],
  async apply(db, events) {
    const readings = inCategory(events, 'reading', readingEventSchemas);
    if (readings.length === 0) return;
    const ids = [...new Set(readings.map((r) => r.id))];
    const rows = new Map<string, Row>();
    for (const part of chunks(ids, 1000)) {
      for (const row of await db
        .selectFrom('usage_logs')
        .selectAll()
        .where('log_id', 'in', part)
        .execute()) {
        rows.set(row.log_id, row as Row);
      }
    }
    const changed = new Set<string>();
    for (const { id, event } of readings) {
      const before = rows.get(id);
      if (before && event.revision <= BigInt(before.reading_revision)) continue; // applied already
      const after = apply(before, event, occurredAt(event));
      if (!after) continue;
      rows.set(id, { ...after, reading_revision: event.revision.toString() });
      changed.add(id);
    }
    for (const part of chunks([...changed], 500)) {
      await db.deleteFrom('usage_logs').where('log_id', 'in', part).execute();
      await sql`INSERT INTO usage_logs
        SELECT * FROM json_populate_recordset(NULL::usage_logs, ${JSON.stringify(part.map((id) => rows.get(id)))})`.execute(
        db,
      );
    }
  },
};
