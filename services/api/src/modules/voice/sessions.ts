import {
  readingKindOfApp,
  readingKinds,
  readingMessages,
  streamDecoders,
  type VoiceConnection,
  type VoiceEndReason,
  type VoiceFailureReason,
  type VoiceSessionEnded,
  type VoiceSessionStarted,
  type VoiceStatus,
  voiceMessages,
} from '@astra/contracts';
import { isDomainError, type Reading, streams } from '@astra/ledger';
import type { Request } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { HttpError, insufficientCredits, notFound } from '../../http/errors.ts';
import {
  type CommandContext,
  type HandledOf,
  type Ledger,
  latestPosition,
} from '../../ledger/ledger.ts';
import {
  type Compensation,
  compensate,
  refundSpend,
  settleRefund,
} from '../readings/compensation.ts';
import { settleQuietly } from '../readings/generation.ts';
import type { VoiceService } from './voiceService.ts';

export interface VoiceDeps extends Pick<AppDeps, 'ledger' | 'consistency' | 'clock' | 'config'> {
  voice: VoiceService;
}

const readingNotFound = () => notFound('Reading Not Found');
const voiceUnavailable = () =>
  new HttpError(502, 'voice_unavailable', voiceMessages.providerFailed);
/** The same Idempotency-Key again, for a session that failed or is over. */
const sessionOver = () =>
  new HttpError(409, 'voice_session_failed', 'This voice session failed or is over');

const CELTIC_CROSS_APP = readingKinds['tarot-celtic-cross'].appId;

const secondsBetween = (from: Date, to: string) =>
  Math.max(0, Math.ceil((new Date(to).getTime() - from.getTime()) / 1000));

/** The reading's voice guide as its stream says, at `now`. */
export function voiceStatusOf(
  readingId: string,
  state: Reading,
  deps: Pick<VoiceDeps, 'config' | 'voice'>,
  now: Date,
): VoiceStatus {
  const { config } = deps;
  const { current, countedSessions, reactivations, creditsCharged, secondsUsed } = state.voice;
  const used = countedSessions > 0;
  return {
    readingId,
    provider: deps.voice.provider,
    used,
    active:
      current?.phase === 'active'
        ? {
            sessionId: current.sessionId,
            provider: current.provider,
            startedAt: current.startedAt,
            endsAt: current.endsAt,
            secondsLeft: secondsBetween(now, current.endsAt),
            reactivation: current.reactivation,
          }
        : null,
    starting: current?.phase === 'requested',
    reactivations,
    creditsCharged,
    secondsUsed,
    nextSessionCost: used ? config.VOICE_REACTIVATION_CREDITS : 0,
    sessionSeconds: config.VOICE_SESSION_SECONDS,
    reactivationCost: config.VOICE_REACTIVATION_CREDITS,
  };
}

/** The user's own delivered reading (its stream), or 404 as for any reading not theirs. */
async function ownReading(ledger: Ledger, userId: string, readingId: string) {
  const loaded = await ledger.load('reading', readingId);
  if (loaded.state.status !== 'completed' || loaded.state.userId !== userId)
    throw readingNotFound();
  return loaded.state;
}

/**
 * `GET …/voice`: the stream's state, after ending a session whose time is up (the server's clock
 * ends it whether or not the browser said so; the decider writes that end once).
 */
export async function voiceStatus(deps: VoiceDeps, req: Request, readingId: string) {
  await ownReading(deps.ledger, req.user!.id, readingId);
  const now = deps.clock();
  const { state } = await deps.ledger.handle(
    'reading',
    readingId,
    { type: 'ExpireVoiceSession', now },
    req.context,
  );
  return voiceStatusOf(readingId, state, deps, now);
}

type SessionRef = { readingId: string; userId: string; sessionId: string; spendId: string };

/**
 * The gate of a paid session (`compensation.ts`): the failure (or the end of a session that
 * never connected) is recorded on the reading's stream first; the reactivation is given back only
 * if that stream then owes it; then the refund is recorded as settled.
 */
const voiceCompensation = (
  ledger: Ledger,
  session: SessionRef,
  reason: VoiceFailureReason,
  context: CommandContext,
): Compensation<Reading> => ({
  fail: () =>
    ledger.handle(
      'reading',
      session.readingId,
      { type: 'FailVoiceSession', sessionId: session.sessionId, reason },
      context,
    ),
  ...voiceRefund(ledger, session, context),
});

/** The refund half of the gate, for a failure or never-connected end recorded already. */
const voiceRefund = (
  ledger: Ledger,
  session: SessionRef,
  context: CommandContext,
): Omit<Compensation<Reading>, 'fail'> => ({
  refundOwed: (state) => state.voice.refundsOwed.some((r) => r.sessionId === session.sessionId),
  refund: () => refundSpend(ledger, session, 'voice_failed', context),
  settle: (refunded) =>
    ledger.handle(
      'reading',
      session.readingId,
      { type: 'SettleVoiceRefund', sessionId: session.sessionId, refunded },
      context,
    ),
});

/** Fails a session that never started, then gives its reactivation back if that is owed. */
export const failVoiceSession = (
  ledger: Ledger,
  session: SessionRef,
  reason: VoiceFailureReason,
  context: CommandContext,
) => compensate(voiceCompensation(ledger, session, reason, context));

/** Settles every refund the reading's stream owes (of sessions that failed or never connected). */
export async function settleVoiceRefunds(
  ledger: Ledger,
  readingId: string,
  userId: string,
  context: CommandContext,
) {
  let { state } = await ledger.load('reading', readingId);
  let position: bigint | null = null;
  for (const owed of state.voice.refundsOwed) {
    const session = { readingId, userId, sessionId: owed.sessionId, spendId: owed.spendId };
    // Recorded already (a failure, or an end that never connected): only the refund is left.
    const settled = await settleRefund(voiceRefund(ledger, session, context), state);
    state = settled.state;
    position = latestPosition(position, settled.position);
  }
  return { state, position };
}

/** Whom the reading is for, and its text: the guide's greeting and its context. */
async function readingContextOf(ledger: Ledger, readingId: string) {
  let firstName = '';
  let text = '';
  for await (const recorded of ledger.store.readStream(streams.reading(readingId))) {
    const event = streamDecoders.reading(recorded);
    if (event.type === 'ReadingRequested') firstName = event.data.firstName ?? '';
    if (event.type === 'ReadingGenerated') {
      const { result } = event.data;
      const field = ['fullReport', 'full_report', 'readingText', 'text'].find(
        (name) => typeof result[name] === 'string',
      );
      text = field ? (result[field] as string) : '';
    }
  }
  return { firstName, text };
}

const minutes = (seconds: number) => Math.round(seconds / 60);

/**
 * `POST …/voice/sessions`, a saga on the reading's stream like a reading's generation: claim the
 * reading's session slot (`VoiceSessionRequested`: two starts at once give one session), spend the
 * reactivation if this is not the included session (the credit stream decides), ask the voice
 * service for a way in, then record the start with the server's clock. A failure after the spend
 * goes through the gate: recorded first, refunded only if recorded. The same Idempotency-Key
 * again carries on from where a crash stopped it (every step is idempotent by its id).
 */
export async function startVoiceSession(
  deps: VoiceDeps,
  req: Request,
  readingId: string,
): Promise<VoiceSessionStarted> {
  const { ledger, config, voice } = deps;
  const user = req.user!;
  const blocked = (await ledger.load('user', user.id)).state.status === 'blocked';
  if (blocked) throw new HttpError(403, 'account_blocked', readingMessages.accountBlocked);
  const reading = await ownReading(ledger, user.id, readingId);
  const session: SessionRef = {
    readingId,
    userId: user.id,
    sessionId: commandIdOf(req, 'voice-session'),
    spendId: commandIdOf(req, 'voice-spend'),
  };
  const cost = config.VOICE_REACTIVATION_CREDITS;
  const insufficient = (balance: number, refusal?: Parameters<typeof insufficientCredits>[3]) =>
    insufficientCredits(voiceMessages.insufficient(cost), cost, balance, refusal);

  const { balance } = (await ledger.load('credits', user.id)).state;
  if (reading.voice.outcomes[session.sessionId]) throw sessionOver();
  if (reading.voice.current?.sessionId !== session.sessionId) {
    const reactivation = reading.voice.countedSessions > 0;
    if (reactivation && balance < cost) throw insufficient(balance);
    try {
      await ledger.handle(
        'reading',
        readingId,
        {
          type: 'RequestVoiceSession',
          userId: user.id,
          sessionId: session.sessionId,
          spendId: session.spendId,
          reactivationCost: cost,
          now: deps.clock(),
        },
        req.context,
      );
    } catch (error) {
      if (isDomainError(error) && error.code === 'voice_session_active') {
        throw new HttpError(409, error.code, voiceMessages.alreadyActive, error.details);
      }
      throw error;
    }
  }
  const claimed = (await ledger.load('reading', readingId)).state.voice.current;
  if (claimed?.sessionId !== session.sessionId) throw sessionOver();

  let remainingCredits = balance;
  if (claimed.phase === 'requested' && claimed.spendId && claimed.creditsCharged > 0) {
    try {
      const spent = await ledger.handle(
        'credits',
        user.id,
        {
          type: 'SpendCredits',
          spendId: claimed.spendId,
          amount: claimed.creditsCharged,
          purpose: 'voice_reactivation',
          description: voiceMessages.ledgerCharge,
          appId: reading.appId,
          readingId,
          blocked,
        },
        req.context,
      );
      remainingCredits = spent.state.balance;
    } catch (error) {
      if (!isDomainError(error)) {
        // The spend may have been made all the same (a connection lost after its commit).
        await failVoiceSession(ledger, session, 'interrupted', req.context).catch(() => {});
        throw error;
      }
      const reason = error.code === 'insufficient_credits' ? error.code : 'spend_refused';
      await ledger.handle(
        'reading',
        readingId,
        { type: 'FailVoiceSession', sessionId: session.sessionId, reason },
        req.context,
      );
      if (error.code === 'insufficient_credits')
        throw insufficient(Number(error.details.balance), error);
      throw error;
    }
  }

  /**
   * After a failure of this session is recorded: gives back what this request spent, in case the
   * sweep failed the start (and settled it with nothing to give back) before the spend landed.
   * `RefundSpend` acts once per spend, so a refund already given is not given twice.
   */
  const refundOwnSpend = async () => {
    if (claimed.spendId && claimed.creditsCharged > 0)
      await refundSpend(
        ledger,
        { ...session, spendId: claimed.spendId },
        'voice_failed',
        req.context,
      );
  };

  const kind = readingKindOfApp(reading.appId ?? 0) ?? 'natal-chart';
  let agent: Awaited<ReturnType<VoiceService['connect']>>;
  try {
    agent = await voice.connect(kind);
  } catch (error) {
    req.log.error({ err: error, readingId, kind }, 'The voice service could not start a session');
    const failed = await failVoiceSession(ledger, session, 'provider_failed', req.context);
    await refundOwnSpend();
    await settleQuietly(deps.consistency, req, failed.position);
    throw voiceUnavailable();
  }

  let started: HandledOf<'reading'>;
  try {
    started = await ledger.handle(
      'reading',
      readingId,
      {
        type: 'StartVoiceSession',
        sessionId: session.sessionId,
        provider: voice.provider,
        seconds: config.VOICE_SESSION_SECONDS,
        now: deps.clock(),
      },
      req.context,
    );
  } catch (error) {
    // Given up on meanwhile by the sweep (its failure is recorded): this start came too late.
    if (isDomainError(error) && error.code === 'voice_session_failed') {
      await refundOwnSpend();
      throw voiceUnavailable();
    }
    throw error;
  }
  const current = started.state.voice.current;
  if (current?.sessionId !== session.sessionId || current.phase !== 'active') throw sessionOver();
  await settleQuietly(deps.consistency, req, started.position);

  const now = deps.clock();
  const status = voiceStatusOf(readingId, started.state, deps, now);
  const { firstName, text: context } = await readingContextOf(ledger, readingId);
  const dynamicVariables = {
    first_name: firstName || user.first_name || '',
    reading_result_id: readingId,
  };
  const connection: VoiceConnection = agent
    ? { provider: 'elevenlabs', ...agent, dynamicVariables, context }
    : { provider: 'offline', dynamicVariables, context };
  const length = minutes(config.VOICE_SESSION_SECONDS);
  return {
    session: status.active!,
    connection,
    voice: status,
    remainingCredits,
    message: current.reactivation
      ? voiceMessages.reactivated(length)
      : voiceMessages.activated(length),
  };
}

/**
 * `POST …/voice/sessions/:sessionId/end`: the end as the server's clock allows it (an early
 * `time_up` is an early end; `connect_failed` is believed only just after the start). A paid
 * session that never connected is refunded through the gate: its end is recorded first.
 */
export async function endVoiceSession(
  deps: VoiceDeps,
  req: Request,
  readingId: string,
  sessionId: string,
  reason: VoiceEndReason,
): Promise<VoiceSessionEnded> {
  const { ledger } = deps;
  const user = req.user!;
  await ownReading(ledger, user.id, readingId);
  let ended: HandledOf<'reading'>;
  try {
    ended = await ledger.handle(
      'reading',
      readingId,
      { type: 'EndVoiceSession', sessionId, reason, now: deps.clock(), userId: user.id },
      req.context,
    );
  } catch (error) {
    if (isDomainError(error) && error.code === 'voice_session_not_found')
      throw notFound('No such voice session');
    throw error;
  }
  // A paid session that never connected: its end is recorded, so its reactivation is given back.
  const refunds = ended.state.voice.refundsOwed.length
    ? await settleVoiceRefunds(ledger, readingId, user.id, req.context)
    : { state: ended.state, position: null };
  const { state } = refunds;
  await settleQuietly(deps.consistency, req, latestPosition(ended.position, refunds.position));
  const recorded = state.voice.outcomes[sessionId];
  if (recorded?.status === 'failed') throw notFound('This voice session never started');
  // Still being started: the start goes on (its charge may be on its way), and the clock ends it.
  if (recorded?.status !== 'ended') {
    throw new HttpError(409, 'voice_session_starting', 'This voice session is still being started');
  }
  const { balance } = (await ledger.load('credits', user.id)).state;
  return {
    reason: recorded.reason,
    secondsUsed: recorded.secondsUsed,
    voice: voiceStatusOf(readingId, state, deps, deps.clock()),
    remainingCredits: balance,
    message:
      recorded.reason === 'time_up'
        ? state.appId === CELTIC_CROSS_APP
          ? voiceMessages.celticCrossTimeUp
          : voiceMessages.completed
        : voiceMessages.ended,
  };
}
