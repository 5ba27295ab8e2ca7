import type { ReadDb } from '@astra/projections';
import { type Ledger, systemContext } from '../../ledger/ledger.ts';
import type { Logger } from '../../observability/logger.ts';
import { INTERRUPTED_AFTER_MS } from '../readings/recovery.ts';
import { failVoiceSession, settleVoiceRefunds } from './sessions.ts';

/**
 * The voice sweep, run by the server's scheduler: ends the sessions whose time is up (the clock
 * decides, whether or not a browser said so), fails a start a crash cut off (longer ago than any
 * start takes: then refunded through the gate), and finishes refunds a crash cut off. The read
 * model only finds candidates; each reading's own stream decides, so runs may overlap.
 */
export async function recoverVoiceSessions(ledger: Ledger, read: ReadDb, now: Date, log: Logger) {
  const candidates = await read
    .selectFrom('usage_logs')
    .select(['log_id', 'user_id', 'voice'])
    .where((eb) =>
      eb.or([
        eb.and([eb('voice_session_status', '=', 'active'), eb('voice_ends_at', '<=', now)]),
        eb.and([
          eb('voice_session_status', '=', 'requested'),
          eb('voice_requested_at', '<', new Date(now.getTime() - INTERRUPTED_AFTER_MS)),
        ]),
        eb('voice_refund_owed', '=', true),
      ]),
    )
    .limit(500)
    .execute();
  let swept = 0;
  for (const { log_id: readingId, user_id: userId, voice } of candidates) {
    try {
      const context = systemContext();
      const { state } = await ledger.reading(
        readingId,
        { type: 'ExpireVoiceSession', now },
        context,
      );
      const cutOff = state.voice.current;
      // Only the start the read model saw cut off (not a newer one, which may be under way).
      if (cutOff?.phase === 'requested' && cutOff.sessionId === voice.current?.sessionId) {
        await failVoiceSession(
          ledger,
          { readingId, userId, sessionId: cutOff.sessionId, spendId: cutOff.spendId ?? '' },
          'interrupted',
          context,
        );
      }
      await settleVoiceRefunds(ledger, readingId, userId, context);
      swept++;
    } catch (error) {
      // One reading that cannot be swept must not hold up the others.
      log.error({ err: error, readingId }, 'Sweeping a voice session failed');
    }
  }
  return swept;
}
