import { type ReadingEvent, readingEventSchemas } from '@astra/contracts';
import { evolveVoice, initialVoice, type Voice, type VoiceEvent } from '@astra/ledger';
import type { UsageLog } from '../schema.ts';
import { forgetReadings, forgetting } from './erasure.ts';
import { occurredAt } from './projection.ts';
import { rowProjection } from './rowProjection.ts';

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

/** A reading event applied to its row (a new row; the one given stays as it was). */
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
 * row with status 'deleted'; the library shows 'completed' ones. An erased user's rows keep kind,
 * cost, status, dates and voice figures; question, name, input and text go (`forgetting`).
 */
export const usageLogsProjection = forgetting(
  rowProjection({
    name: 'usage_logs',
    table: 'usage_logs',
    key: 'log_id',
    categories: { reading: readingEventSchemas },
    revision: () => 'reading_revision',
    decode: (row): Row => row,
    encode: (row) => ({
      ...row,
      input_data: JSON.stringify(row.input_data),
      reading_result_content: JSON.stringify(row.reading_result_content),
      voice: JSON.stringify(row.voice),
    }),
    evolve: (row, event) => apply(row, event, occurredAt(event)),
  }),
  forgetReadings,
);
