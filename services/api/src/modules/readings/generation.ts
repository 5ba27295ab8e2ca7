import {
  type ReadingCreated,
  type ReadingKind,
  readingKinds,
  readingMessages,
} from '@astra/contracts';
import { isDomainError, type Reading, streams } from '@astra/ledger';
import { type NarrativeWriter, ReadingInputError } from '@astra/readings';
import type { Request } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { HttpError } from '../../http/errors.ts';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';
import { type Compensation, compensate, refundSpend } from './compensation.ts';
import { prepareReading } from './kinds.ts';

export const insufficientCredits = (required: number, balance: number) =>
  new HttpError(402, 'insufficient_credits', readingMessages.insufficientCredits, {
    required,
    balance,
  });

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
  fail: () => ledger.reading(reading.readingId, { type: 'FailReading', reason }, context),
  refundOwed: (state) => state.refundOwed,
  refund: () => refundSpend(ledger, reading, reason, context),
  settle: (refunded) =>
    ledger.reading(reading.readingId, { type: 'SettleRefund', refunded }, context),
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

/** The answer of a reading delivered by an earlier run of the same request. */
async function deliveredAlready(
  ledger: Ledger,
  reading: { readingId: string },
  appId: number,
  remainingCredits: number,
): Promise<ReadingCreated> {
  for await (const event of ledger.store.readStream(streams.reading(reading.readingId))) {
    if (event.type === 'ReadingGenerated') {
      const { result } = event.data as { result: Record<string, unknown> };
      return { readingId: reading.readingId, appId, remainingCredits, result };
    }
  }
  throw generationFailed();
}

/**
 * One reading, as a small saga on the reading's own stream: validate and compute the facts
 * (nothing written yet), record the request, spend its cost from the credit stream (whose state,
 * not a projection, decides whether there is enough), write the text, record the result. A
 * failure before the result is recorded goes through the gate (`abandonReading`: failure first,
 * then the refund); nothing after it does. `recovery.ts` finishes what a crash cut off.
 */
export async function generateReading(
  deps: Pick<AppDeps, 'ledger' | 'read' | 'consistency'> & { writer: NarrativeWriter },
  req: Request,
  kind: ReadingKind,
  body: unknown,
): Promise<ReadingCreated> {
  const { ledger, read, consistency, writer } = deps;
  const user = req.user!;
  // Blocked or not is the user stream's state (the write side), never the profile read model;
  // the spend below carries it too, so the credit decider refuses a blocked user's spend.
  const blocked = (await ledger.userOf(user.id)).state.status === 'blocked';
  if (blocked) throw new HttpError(403, 'account_blocked', readingMessages.accountBlocked);
  const { appId, schema } = readingKinds[kind];
  const form = schema.parse(body);
  const app = await read
    .selectFrom('apps')
    .select(['app_name', 'credit_cost_per_execution'])
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  const cost = app.credit_cost_per_execution;

  let generation: ReturnType<typeof prepareReading>;
  try {
    generation = prepareReading(kind, form as never);
  } catch (error) {
    if (error instanceof ReadingInputError) {
      throw new HttpError(400, 'invalid_request', error.message, {
        fields: [{ field: error.field ?? '(body)', message: error.message }],
      });
    }
    throw error;
  }

  const { balance } = (await ledger.creditAccountOf(user.id)).state;
  const reading = {
    readingId: commandIdOf(req, 'reading'),
    userId: user.id,
    spendId: commandIdOf(req, 'reading-spend'),
  };
  // The same Idempotency-Key again, after a crash cut its request off: carry on from there (the
  // spend is made once by its id; a delivered or failed reading is answered as it is).
  const earlier = (await ledger.readingOf(reading.readingId)).state;
  if (earlier.status === 'completed') return deliveredAlready(ledger, reading, appId, balance);
  if (earlier.status === 'failed' || earlier.status === 'deleted') throw generationFailed();
  if (earlier.status === 'none') {
    if (balance < cost) throw insufficientCredits(cost, balance);
    await ledger.reading(
      reading.readingId,
      {
        type: 'RequestReading',
        ...reading,
        appId,
        appName: app.app_name,
        input: form as Record<string, unknown>,
        firstName: generation.firstName,
        question: generation.question,
        creditsCharged: cost,
      },
      req.context,
    );
  }

  let remainingCredits = balance;
  // A free reading (cost 0) spends nothing.
  if (cost > 0) {
    try {
      const spent = await ledger.credits(
        user.id,
        {
          type: 'SpendCredits',
          spendId: reading.spendId,
          amount: cost,
          purpose: 'reading',
          description: app.app_name,
          appId,
          readingId: reading.readingId,
          blocked,
        },
        req.context,
      );
      remainingCredits = spent.state.balance;
    } catch (error) {
      if (isDomainError(error) && error.code === 'insufficient_credits') {
        // Another request spent the credits first.
        await ledger.reading(
          reading.readingId,
          { type: 'FailReading', reason: 'insufficient_credits', refunded: false },
          req.context,
        );
        throw insufficientCredits(cost, Number(error.details.balance));
      }
      await abandonReading(ledger, reading, 'generation_failed', req.context);
      throw error;
    }
  }

  let result: Record<string, unknown>;
  try {
    result = await generation.write(writer);
  } catch (error) {
    req.log.error(
      { err: error, readingId: reading.readingId, kind },
      'A reading could not be written',
    );
    const failed = await abandonReading(ledger, reading, 'generation_failed', req.context);
    await settleQuietly(consistency, req, failed.position);
    throw generationFailed();
  }

  let completed: Awaited<ReturnType<Ledger['reading']>>;
  try {
    completed = await ledger.reading(
      reading.readingId,
      { type: 'CompleteReading', result, writer: writer.id },
      req.context,
    );
  } catch (error) {
    // Given up on meanwhile (by a recovery, which refunds it): the text came too late.
    if (isDomainError(error) && error.code === 'reading_failed') throw generationFailed();
    // The append may have been made all the same (a connection lost after the commit): the gate
    // fails the reading only if it is still pending, and so refunds only a reading not delivered.
    await abandonReading(ledger, reading, 'generation_failed', req.context).catch(() => {});
    throw error;
  }
  // Delivered: from here on nothing gives up on the reading or refunds it.
  await settleQuietly(consistency, req, completed.position);
  return { readingId: reading.readingId, appId, remainingCredits, result };
}
