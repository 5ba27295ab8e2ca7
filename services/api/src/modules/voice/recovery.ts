import type { ReadDb } from '@astra/projections';
import type { Config } from '../../config.ts';
import { type Ledger, systemContext } from '../../ledger/ledger.ts';
import type { Logger } from '../../observability/logger.ts';
import { failVoiceSession, settleVoiceRefunds } from './sessions.ts';

/**
 * How long a start may be under way before the sweep takes it for cut off: longer than any start
 * takes (the voice service's time-out, twice with its retry, and the ledger's steps). A request
 * slower still that spends after the sweep failed its start gives that spend back itself.
 */
export const voiceStartCutOffMs = (config: Pick<Config, 'ELEVENLABS_TIMEOUT_MS'>) =>
  2 * config.ELEVENLABS_TIMEOUT_MS + 60_000;

/**
 * The voice sweep, run by the server's scheduler: ends the sessions whose time is up (the clock
 * decides, whether or not a browser said so), fails a start a crash cut off (longer ago than any
 * start takes: then refunded through the gate), and finishes refunds a crash cut off. The read
 * model only finds candidates; each reading's own stream decides, so runs may overlap.
 */
export async function recoverVoiceSessions(
  ledger: Ledger,
  read: ReadDb,
  now: Date,
  log: Logger,
  startCutOffMs = voiceStartCutOffMs({ ELEVENLABS_TIMEOUT_MS: 10_000 }),
) {
  const candidates = await read
    .selectFrom('usage_logs')
    .select(['log_id', 'user_id', 'voice'])
    .where((eb) =>
      eb.or([
        eb.and([eb('voice_session_status', '=', 'active'), eb('voice_ends_at', '<=', now)]),
        eb.and([
          eb('voice_session_status', '=', 'requested'),
          eb('voice_requested_at', '<', new Date(now.getTime() - startCutOffMs)),
        ]),
        eb('voice_refund_owed', '=', true),
      ]),
    )
    // The longest due first, so rows that keep failing (logged below) cannot starve the others.
    .orderBy('voice_ends_at')
    .orderBy('voice_requested_at')
    .limit(500)
    .execute();
  let swept = 0;
  for (const { log_id: readingId, user_id: userId, voice } of candidates) {
    try {
      const context = systemContext();
      const { state } = await ledger.handle(
        'reading',
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
