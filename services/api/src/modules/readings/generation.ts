import { type ReadingCreated, type ReadingStarted, readingMessages } from '@astra/contracts';
import { isDomainError, type Reading } from '@astra/ledger';
import { ReadingInputError } from '@astra/readings';
import type { Request } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { HttpError, insufficientCredits as insufficientCreditsOf } from '../../http/errors.ts';
import {
  type CommandContext,
  type HandledOf,
  type Ledger,
  latestPosition,
} from '../../ledger/ledger.ts';
import { type Compensation, compensate, refundSpend } from './compensation.ts';
import type { LiveDraft } from './drafts.ts';
import type { Generation, ReadingKindEngine } from './kinds.ts';
import { readingViewOf, recordedReading } from './recorded.ts';

export const insufficientCredits = (
  required: number,
  balance: number,
  refusal?: Parameters<typeof insufficientCreditsOf>[3],
) => insufficientCreditsOf(readingMessages.insufficientCredits, required, balance, refusal);

const generationFailed = () =>
  new HttpError(502, 'generation_failed', readingMessages.generationFailed);

type ReadingRef = { readingId: string; userId: string; spendId: string };
type FailureReason = 'generation_failed' | 'interrupted';

/** The gate's steps for one reading: its own stream, and the credit stream that paid for it. */
export const readingCompensation = (
  ledger: Ledger,
  reading: ReadingRef,
  reason: FailureReason,
  context: CommandContext,
): Compensation<Reading> => ({
  fail: () => ledger.handle('reading', reading.readingId, { type: 'FailReading', reason }, context),
  refundOwed: (state) => state.refundOwed,
  refund: () => refundSpend(ledger, reading, reason, context),
  settle: (refunded) =>
    ledger.handle('reading', reading.readingId, { type: 'SettleRefund', refunded }, context),
});

/**
 * Gives up on a reading: records that it failed, then gives its credits back (once) only if the
 * failure was recorded. A delivered reading is refused (`reading_completed`) and keeps its spend.
 */
export const abandonReading = (
  ledger: Ledger,
  reading: ReadingRef,
  reason: FailureReason,
  context: CommandContext,
) => compensate(readingCompensation(ledger, reading, reason, context));

/**
 * Read-your-writes for the answer, after the saga is over: the read side lagging or failing must
 * not change an outcome the streams already hold (a completed reading stays delivered).
 */
export const settleQuietly = async (
  consistency: AppDeps['consistency'],
  req: Request,
  position: bigint | null,
) => {
  try {
    await consistency.settle(req, position);
  } catch (error) {
    req.log.warn({ err: error }, 'Waiting for the read models failed; answering all the same');
  }
};

/** A reading that has been paid for; the rest of its saga runs in this process. */
export interface StartedReading {
  /** The `202` of the start route: the facts, the text to come on the reading's stream. */
  started: ReadingStarted;
  /** The latest position written so far (the spend), for read-your-writes. */
  position: bigint | null;
  /**
   * The rest of the saga: the text written (into the reading's draft, where its stream reads
   * it) and the result recorded. Resolves with the `201`'s body, or rejects, once the reading
   * is failed and refunded, with `502 generation_failed` (or the error that stopped it).
   */
  finished: Promise<ReadingCreated>;
}

type GenerationDeps = Pick<
  AppDeps,
  'ledger' | 'catalog' | 'clock' | 'consistency' | 'writer' | 'drafts'
>;

/** A promise others may await or not: its rejection is never "unhandled". */
const settled = <T>(promise: Promise<T>) => {
  promise.catch(() => {});
  return promise;
};

/**
 * One reading, as a small saga on the reading's own stream: validate and compute the facts
 * (nothing written yet), record the request, spend its cost from the credit stream (whose state,
 * not a projection, decides whether there is enough), write the text, record the result. This
 * runs the saga up to the spend and starts the writing (`finished`); the `POST` routes answer
 * when it is over (`201`) or at once with the facts (`202`). A failure before the result is
 * recorded goes through the gate (`abandonReading`: failure first, then the refund); nothing
 * after it does. `recovery.ts` finishes what a crash cut off.
 */
export async function startReading(
  deps: GenerationDeps,
  req: Request,
  kind: ReadingKindEngine,
  body: unknown,
): Promise<StartedReading> {
  const { ledger, catalog, drafts } = deps;
  const user = req.user!;
  // Blocked or not is the user stream's state (the write side), never the profile read model;
  // the spend below carries it too, so the credit decider refuses a blocked user's spend.
  const blocked = (await ledger.load('user', user.id)).state.status === 'blocked';
  if (blocked) throw new HttpError(403, 'account_blocked', readingMessages.accountBlocked);
  const { slug, appId, name, schema } = kind.record;
  const form = schema.parse(body);
  // The catalogue's price now (dated configuration); the spend records it, so it stays this
  // reading's cost whatever the price becomes.
  const cost = catalog.priceOf(slug, deps.clock());

  let generation: Generation;
  try {
    generation = kind.prepare(form);
  } catch (error) {
    if (error instanceof ReadingInputError) {
      throw new HttpError(400, 'invalid_request', error.message, {
        fields: [{ field: error.field ?? '(body)', message: error.message }],
      });
    }
    throw error;
  }

  const { balance } = (await ledger.load('credits', user.id)).state;
  const reading = {
    readingId: commandIdOf(req, 'reading'),
    userId: user.id,
    spendId: commandIdOf(req, 'reading-spend'),
  };
  /** The 202: the reading as recorded, with these facts, and where its text arrives. */
  const answer = async (facts: Record<string, unknown> | null, remainingCredits: number) => {
    const recorded = await recordedReading(ledger, reading.readingId);
    if (!recorded) throw new Error(`The reading ${reading.readingId} was not recorded`);
    const view = readingViewOf(recorded, facts ?? recorded.result ?? {}, catalog);
    return {
      started: { ...view, remainingCredits, stream: `/api/readings/${reading.readingId}/stream` },
      result: recorded.result,
    };
  };
  // The same Idempotency-Key again, after a crash cut its request off: carry on from there (the
  // spend is made once by its id; a delivered or failed reading is answered as it is, and its
  // stream tells the same).
  const earlier = (await ledger.load('reading', reading.readingId)).state;
  if (earlier.status === 'completed') {
    const { started, result } = await answer(null, balance);
    return {
      started,
      position: null,
      finished: Promise.resolve({
        readingId: reading.readingId,
        appId,
        remainingCredits: balance,
        result: result ?? {},
      }),
    };
  }
  if (earlier.status === 'failed' || earlier.status === 'deleted') {
    return {
      started: (await answer(generation.result(''), balance)).started,
      position: null,
      finished: settled(Promise.reject(generationFailed())),
    };
  }
  let position: bigint | null = null;
  if (earlier.status === 'none') {
    if (balance < cost) throw insufficientCredits(cost, balance);
    const requested = await ledger.handle(
      'reading',
      reading.readingId,
      {
        type: 'RequestReading',
        ...reading,
        appId,
        appName: name,
        input: form as Record<string, unknown>,
        firstName: generation.firstName,
        question: generation.question,
        creditsCharged: cost,
      },
      req.context,
    );
    position = requested.position;
  }

  let remainingCredits = balance;
  let draft: LiveDraft;
  try {
    // A free reading (cost 0) spends nothing.
    if (cost > 0) {
      const spent = await ledger.handle(
        'credits',
        user.id,
        {
          type: 'SpendCredits',
          spendId: reading.spendId,
          amount: cost,
          purpose: 'reading',
          description: name,
          appId,
          readingId: reading.readingId,
          blocked,
        },
        req.context,
      );
      remainingCredits = spent.state.balance;
      position = latestPosition(position, spent.position);
    }
    draft = await drafts.open(reading.readingId, generation.result(''));
  } catch (error) {
    if (isDomainError(error) && error.code === 'insufficient_credits') {
      // Another request spent the credits first.
      await ledger.handle(
        'reading',
        reading.readingId,
        { type: 'FailReading', reason: 'insufficient_credits', refunded: false },
        req.context,
      );
      throw insufficientCredits(cost, Number(error.details.balance), error);
    }
    await abandonReading(ledger, reading, 'generation_failed', req.context);
    throw error;
  }

  const finished = settled(
    writeReading(deps, req, { ...reading, appId, remainingCredits }, generation, draft),
  );
  const { started } = await answer(generation.result(''), remainingCredits);
  return { started, position, finished };
}

/** The text, written into the draft piece by piece; null when the writer failed. */
async function writeText(
  generation: Generation,
  writer: GenerationDeps['writer'],
  draft: LiveDraft,
  req: Request,
): Promise<string | null> {
  try {
    for await (const piece of generation.write(writer, draft.stop.signal)) draft.append(piece);
    return draft.text.trimEnd();
  } catch (error) {
    req.log.error({ err: error, readingId: draft.readingId }, 'A reading could not be written');
    return null;
  }
}

/** The saga from the spend on: the writer writes into the draft, then the result is recorded. */
async function writeReading(
  { ledger, consistency, writer }: GenerationDeps,
  req: Request,
  reading: ReadingRef & { appId: number; remainingCredits: number },
  generation: Generation,
  draft: LiveDraft,
): Promise<ReadingCreated> {
  try {
    const text = await writeText(generation, writer, draft, req);
    if (text === null) {
      const failed = await abandonReading(ledger, reading, 'generation_failed', req.context);
      // The outcome is on the reading's stream: its readers take it from there.
      await draft.close();
      await settleQuietly(consistency, req, failed.position);
      throw generationFailed();
    }
    const result = generation.result(text);
    let completed: HandledOf<'reading'>;
    try {
      completed = await ledger.handle(
        'reading',
        reading.readingId,
        { type: 'CompleteReading', result, writer: writer.id },
        req.context,
      );
    } catch (error) {
      // Given up on meanwhile (by a recovery, which refunds it): the text came too late.
      if (isDomainError(error) && error.code === 'reading_failed') throw generationFailed();
      // The append may have been made all the same (a connection lost after the commit): the
      // gate fails the reading only if it is still pending, and so refunds only a reading not
      // delivered.
      await abandonReading(ledger, reading, 'generation_failed', req.context).catch(() => {});
      throw error;
    }
    // Delivered: from here on nothing gives up on the reading or refunds it.
    await draft.close();
    await settleQuietly(consistency, req, completed.position);
    return {
      readingId: reading.readingId,
      appId: reading.appId,
      remainingCredits: reading.remainingCredits,
      result,
    };
  } finally {
    // Whatever happened, the writing is over (closing again is a no-op).
    await draft.close();
  }
}
