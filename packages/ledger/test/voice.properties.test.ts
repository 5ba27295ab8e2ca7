import type { ReadingEvent, VoiceEndReason, VoiceFailureReason } from '@astra/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fold,
  isDomainError,
  nothingSpent,
  type Reading,
  type ReadingCommand,
  readingDecider,
  VOICE_CONNECT_GRACE_SECONDS,
  VOICE_TIME_UP_TOLERANCE_SECONDS,
} from '../src/index.ts';

/**
 * Random histories of a delivered reading's voice sessions (requests with fresh and repeated
 * ids, starts, failures, ends at random times, the clock's expiries, refund settlements), run
 * through the reading decider as the command handler runs them (refused commands append
 * nothing). After every step the stream's state must agree with what its event log says,
 * worked out here independently of `evolve`.
 */
const COST = 2;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const OWNER = 'u1';

const delivered: ReadingEvent[] = [
  {
    type: 'ReadingRequested',
    data: {
      readingId: 'r1',
      userId: OWNER,
      appId: 3,
      appName: 'Tarot Traditional',
      input: {},
      firstName: null,
      question: null,
      creditsCharged: 4,
      spendId: 's1',
    },
  },
  { type: 'ReadingGenerated', data: { result: { readingText: 'x' }, writer: 'offline' } },
];

/** Which session a command names: the one in the slot, the first owed a refund, a new or a known id. */
type SessionRef = 'current' | 'owed' | 'fresh' | `v${number}`;
type Op =
  | { kind: 'request'; session: SessionRef; userId: string }
  | { kind: 'start'; session: SessionRef; seconds: number }
  | { kind: 'fail'; session: SessionRef; reason: VoiceFailureReason }
  | { kind: 'end'; session: SessionRef; reason: VoiceEndReason; userId: string | undefined }
  | { kind: 'expire' }
  | { kind: 'settle'; session: SessionRef; refunded: boolean }
  /** The owner deletes the reading from the library (rarely: it ends all new sessions). */
  | { kind: 'delete' };
type Step = { op: Op; advanceMs: number };

const known = fc.integer({ min: 0, max: 4 }).map((n): SessionRef => `v${n}`);
const ref = (...extra: SessionRef[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<SessionRef>('current') },
    { weight: 1, arbitrary: known },
    ...extra.map((r) => ({ weight: 2, arbitrary: fc.constant<SessionRef>(r) })),
  );
const failureReason = fc.constantFrom<VoiceFailureReason>(
  'insufficient_credits',
  'spend_refused',
  'provider_failed',
  'interrupted',
);
const endReason = fc.constantFrom<VoiceEndReason>(
  'time_up',
  'ended_early',
  'left',
  'connect_failed',
);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      session: ref('fresh', 'fresh'),
      userId: fc.constantFrom(OWNER, OWNER, OWNER, 'u2'),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      session: ref(),
      seconds: fc.constantFrom(300, 300, 20, 3),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fail' as const),
      session: ref(),
      reason: failureReason,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('end' as const),
      session: ref(),
      reason: endReason,
      userId: fc.constantFrom<string | undefined>(OWNER, OWNER, undefined, 'u2'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      session: ref('owed', 'owed'),
      refunded: fc.boolean(),
    }),
  },
);
const step: fc.Arbitrary<Step> = fc.record({
  op,
  advanceMs: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 8_000 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 45_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 400_000 }) },
  ),
});
/** Up to 60 steps; in one history out of six the reading is deleted somewhere along the way. */
const history: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.array(step, { maxLength: 60, size: 'max' }),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.nat({ max: 60 }) },
    ),
  )
  .map(([steps, deleteAt]) =>
    deleteAt === null
      ? steps
      : steps.toSpliced(deleteAt, 0, { op: { kind: 'delete' }, advanceMs: 0 }),
  );

const isVoiceEvent = (e: ReadingEvent) => e.type.startsWith('Voice');
const sessionIdOf = (e: ReadingEvent) =>
  'sessionId' in e.data ? (e.data as { sessionId: string }).sessionId : null;

/** Everything the event log says of one session (each kind of event at most once, checked). */
interface Story {
  requested: Extract<ReadingEvent, { type: 'VoiceSessionRequested' }>['data'];
  started?: Extract<ReadingEvent, { type: 'VoiceSessionStarted' }>['data'];
  failed?: Extract<ReadingEvent, { type: 'VoiceSessionFailed' }>['data'];
  ended?: Extract<ReadingEvent, { type: 'VoiceSessionEnded' }>['data'];
  settled?: Extract<ReadingEvent, { type: 'VoiceRefundSettled' }>['data'];
}

/** Reads the log's sessions, checking that each session's events come once and in order. */
function storiesOf(log: ReadingEvent[]) {
  const stories = new Map<string, Story>();
  for (const event of log.filter(isVoiceEvent)) {
    const id = sessionIdOf(event)!;
    const story = stories.get(id);
    if (event.type === 'VoiceSessionRequested') {
      expect(story, `${id} requested twice`).toBeUndefined();
      stories.set(id, { requested: event.data });
      continue;
    }
    expect(story, `${id}: ${event.type} before its request`).toBeDefined();
    const s = story!;
    switch (event.type) {
      case 'VoiceSessionStarted':
        expect(s.started, `${id} started twice`).toBeUndefined();
        expect(s.failed, `${id} started after it failed`).toBeUndefined();
        expect(s.ended, `${id} started after it ended`).toBeUndefined();
        s.started = event.data;
        break;
      case 'VoiceSessionFailed':
        expect(s.failed, `${id} failed twice`).toBeUndefined();
        expect(s.started, `${id} failed after it started`).toBeUndefined();
        s.failed = event.data;
        break;
      case 'VoiceSessionEnded':
        expect(s.ended, `${id} ended twice`).toBeUndefined();
        expect(s.started, `${id} ended before it started`).toBeDefined();
        s.ended = event.data;
        break;
      case 'VoiceRefundSettled':
        expect(s.settled, `${id} settled twice`).toBeUndefined();
        expect(owes(s), `${id} settled without owing`).toBe(true);
        expect(event.data.spendId).toBe(s.requested.spendId);
        s.settled = event.data;
        break;
    }
  }
  return stories;
}

const paid = (s: Story) => s.requested.spendId !== null && s.requested.creditsCharged > 0;
/** Whether a session's reactivation is owed back (before any settlement): it was spent and not delivered. */
const owes = (s: Story) =>
  paid(s) &&
  ((s.failed !== undefined && !nothingSpent(s.failed.reason)) ||
    s.ended?.reason === 'connect_failed');
/** Whether a reactivation's charge stands: spent, and not given back. */
const stands = (s: Story) =>
  s.requested.reactivation && !(s.failed && nothingSpent(s.failed.reason)) && !s.settled;
const counts = (s: Story) => s.started !== undefined && s.ended?.reason !== 'connect_failed';
const lengthOf = (started: NonNullable<Story['started']>) =>
  (Date.parse(started.endsAt) - Date.parse(started.startedAt)) / 1000;

/** The invariants of the state after a step, against the log read independently. */
function check(state: Reading, log: ReadingEvent[]) {
  const stories = storiesOf(log);
  const all = [...stories.entries()];
  const voice = state.voice;

  // One slot: at most one session requested and not yet failed or ended, and it is the current one.
  const open = all.filter(([, s]) => !s.failed && !s.ended);
  expect(open.length).toBeLessThanOrEqual(1);
  expect(voice.current?.sessionId ?? null).toBe(open[0]?.[0] ?? null);
  if (voice.current) expect(voice.current.phase).toBe(open[0]![1].started ? 'active' : 'requested');

  expect(voice.countedSessions).toBeGreaterThanOrEqual(0);
  expect(voice.countedSessions).toBe(all.filter(([, s]) => counts(s)).length);
  expect(voice.reactivations).toBeGreaterThanOrEqual(0);
  const standing = all.filter(([, s]) => stands(s)).length;
  expect(voice.reactivations).toBe(standing);
  expect(voice.creditsCharged).toBe(COST * standing);

  const owed = all
    .filter(([, s]) => owes(s) && !s.settled)
    .map(([sessionId, s]) => ({
      sessionId,
      spendId: s.requested.spendId,
      credits: s.requested.creditsCharged,
    }));
  expect(voice.refundsOwed).toEqual(owed);

  let secondsUsed = 0;
  for (const [id, s] of all) {
    if (!s.ended) continue;
    const length = lengthOf(s.started!);
    const { reason, endedAt } = s.ended;
    expect(s.ended.secondsUsed, `${id} used more than its length`).toBeLessThanOrEqual(length);
    // The clock's end is never later than endsAt; one at endsAt is time up, with the full length.
    expect(Date.parse(endedAt)).toBeLessThanOrEqual(Date.parse(s.started!.endsAt));
    if (endedAt === s.started!.endsAt) expect(reason).toBe('time_up');
    if (reason === 'time_up') expect(s.ended.secondsUsed).toBe(Math.floor(length));
    // Never connected: believed only within the grace after the start.
    if (reason === 'connect_failed') {
      expect(s.ended.secondsUsed).toBeLessThanOrEqual(VOICE_CONNECT_GRACE_SECONDS);
      expect(Date.parse(endedAt) - Date.parse(s.started!.startedAt)).toBeLessThanOrEqual(
        VOICE_CONNECT_GRACE_SECONDS * 1000,
      );
    }
    // Time up: by the clock, or the browser's within the tolerance of endsAt.
    if (reason === 'time_up')
      expect(Date.parse(s.started!.endsAt) - Date.parse(endedAt)).toBeLessThanOrEqual(
        VOICE_TIME_UP_TOLERANCE_SECONDS * 1000,
      );
    secondsUsed += s.ended.secondsUsed;
    expect(voice.outcomes[id]).toEqual({
      status: 'ended',
      reason,
      secondsUsed: s.ended.secondsUsed,
    });
  }
  for (const [id, s] of all)
    if (s.failed) expect(voice.outcomes[id]).toEqual({ status: 'failed', reason: s.failed.reason });
  expect(voice.secondsUsed).toBe(secondsUsed);
  return stories;
}

/** Runs the steps like the command handler: decide, append, evolve; refusals change nothing. */
function run(steps: Step[]) {
  const log = [...delivered];
  let state = fold(readingDecider, log);
  let clock = T0;
  let fresh = 0;
  let stories = new Map<string, Story>();
  const idOf = (session: SessionRef) => {
    if (session === 'current') return state.voice.current?.sessionId ?? 'v0';
    if (session === 'owed') return state.voice.refundsOwed[0]?.sessionId ?? 'v0';
    if (session === 'fresh') return `n${fresh++}`;
    return session;
  };
  for (const { op, advanceMs } of steps) {
    clock += advanceMs;
    const now = new Date(clock);
    const command: ReadingCommand =
      op.kind === 'request'
        ? {
            type: 'RequestVoiceSession',
            userId: op.userId,
            sessionId: idOf(op.session),
            spendId: `spend-${fresh}-${clock}`,
            reactivationCost: COST,
            now,
          }
        : op.kind === 'start'
          ? {
              type: 'StartVoiceSession',
              sessionId: idOf(op.session),
              provider: 'offline',
              seconds: op.seconds,
              now,
            }
          : op.kind === 'fail'
            ? { type: 'FailVoiceSession', sessionId: idOf(op.session), reason: op.reason }
            : op.kind === 'end'
              ? op.userId === undefined
                ? { type: 'EndVoiceSession', sessionId: idOf(op.session), reason: op.reason, now }
                : {
                    type: 'EndVoiceSession',
                    sessionId: idOf(op.session),
                    reason: op.reason,
                    now,
                    userId: op.userId,
                  }
              : op.kind === 'expire'
                ? { type: 'ExpireVoiceSession', now }
                : op.kind === 'settle'
                  ? {
                      type: 'SettleVoiceRefund',
                      sessionId: idOf(op.session),
                      refunded: op.refunded,
                    }
                  : { type: 'DeleteReading', userId: OWNER };

    const before = state;
    const countedBefore = [...stories.values()].filter(counts).length;
    let events: ReadingEvent[] = [];
    try {
      events = readingDecider.decide(command, state);
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
    for (const event of events) {
      state = readingDecider.evolve(state, event);
      log.push(event);
    }
    checkStep(command, before, events, countedBefore);
    stories = check(state, log);
    // Every command is idempotent: the same command again, at the same time, adds nothing.
    if (events.length > 0) {
      let again: ReadingEvent[] = [];
      try {
        again = readingDecider.decide(command, state);
      } catch (error) {
        if (!isDomainError(error)) throw error;
      }
      expect(again, `${command.type} applied twice`).toEqual([]);
    }
  }
  return { state, log };
}

/** What one command may write. */
function checkStep(
  command: ReadingCommand,
  before: Reading,
  events: ReadingEvent[],
  countedBefore: number,
) {
  const requested = events.filter((e) => e.type === 'VoiceSessionRequested');
  if (command.type !== 'RequestVoiceSession') {
    expect(requested).toEqual([]);
    return;
  }
  if (requested.length === 0) return;
  // Only the owner of a delivered reading; the first counted session included, later ones paid.
  expect(command.userId).toBe(before.userId);
  expect(before.status).toBe('completed');
  const reactivation = countedBefore > 0;
  expect(requested).toEqual([
    {
      type: 'VoiceSessionRequested',
      data: {
        sessionId: command.sessionId,
        reactivation,
        spendId: reactivation ? command.spendId : null,
        creditsCharged: reactivation ? command.reactivationCost : 0,
      },
    },
  ]);
  // A session whose time was up is ended first (at its endsAt), then the new one requested.
  const slot = before.voice.current;
  if (events.length === 2) {
    expect(slot?.phase).toBe('active');
    expect(events[0]).toMatchObject({
      type: 'VoiceSessionEnded',
      data: { sessionId: slot!.sessionId, reason: 'time_up' },
    });
    expect(command.now.getTime()).toBeGreaterThanOrEqual(
      Date.parse(slot?.phase === 'active' ? slot.endsAt : ''),
    );
  } else {
    expect(events).toHaveLength(1);
    expect(slot).toBeNull();
  }
}

describe('voice sessions over random histories', () => {
  it('keep one slot, count and charge what the log says, and owe only what the log says', () => {
    fc.assert(
      fc.property(history, (steps) => {
        run(steps);
      }),
      { numRuns: 500 },
    );
  });

  it('reach the interesting states (the generator is not vacuous)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(history, (steps) => {
        const { log } = run(steps);
        for (const e of log) {
          if (e.type === 'VoiceSessionRequested' && e.data.reactivation) seen.add('reactivation');
          if (e.type === 'VoiceSessionEnded') seen.add(`ended:${e.data.reason}`);
          if (e.type === 'VoiceSessionFailed') seen.add(`failed:${e.data.reason}`);
          if (e.type === 'VoiceRefundSettled') seen.add(`settled:${e.data.refunded}`);
        }
        const types = log.map((e) => e.type);
        if (types.includes('ReadingDeleted')) seen.add('deleted');
        const at = types.indexOf('VoiceSessionEnded');
        if (at >= 0 && types[at + 1] === 'VoiceSessionRequested')
          seen.add('time up, then requested');
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(
      [
        'ended:connect_failed',
        'ended:ended_early',
        'ended:left',
        'ended:time_up',
        'failed:insufficient_credits',
        'failed:interrupted',
        'failed:provider_failed',
        'failed:spend_refused',
        'reactivation',
        'settled:false',
        'settled:true',
        'time up, then requested',
        'deleted',
      ].sort(),
    );
  });
});
