import { randomUUID } from 'node:crypto';
import {
  type ReadingCreated,
  type ReadingKind,
  readingKinds,
  readingMessages,
} from '@astra/contracts';
import { isDomainError } from '@astra/ledger';
import { type NarrativeWriter, ReadingInputError } from '@astra/readings';
import type { Request } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { HttpError } from '../../http/errors.ts';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';
import { prepareReading } from './kinds.ts';

export const insufficientCredits = (required: number, balance: number) =>
  new HttpError(402, 'insufficient_credits', readingMessages.insufficientCredits, {
    required,
    balance,
  });

const generationFailed = () =>
  new HttpError(502, 'generation_failed', readingMessages.generationFailed);

/** Gives a reading's credits back (once) and records that it failed. */
export async function abandonReading(
  ledger: Ledger,
  reading: { readingId: string; userId: string; spendId: string },
  reason: 'generation_failed' | 'interrupted',
  context: CommandContext,
) {
  let refunded = false;
  try {
    const refund = await ledger.credits(
      reading.userId,
      { type: 'RefundSpend', spendId: reading.spendId, reason },
      context,
    );
    refunded =
      refund.newEvents.length > 0 ||
      refund.state.recentSpends.some((s) => s.spendId === reading.spendId && s.refunded);
  } catch (error) {
    // A refusal (no such spend, or an account closed meanwhile, its credits forfeited) leaves
    // nothing to give back; the reading is failed all the same.
    if (!isDomainError(error)) throw error;
  }
  return ledger.reading(reading.readingId, { type: 'FailReading', reason, refunded }, context);
}

/**
 * One reading, as a small saga on the reading's own stream: validate and compute the facts
 * (nothing written yet), record the request, spend its cost from the credit stream (whose state,
 * not a projection, decides whether there is enough), write the text, record the result. A
 * failure after the spend refunds it; `recovery.ts` finishes requests a crash left pending.
 */
export async function generateReading(
  deps: Pick<AppDeps, 'ledger' | 'read' | 'consistency'> & { writer: NarrativeWriter },
  req: Request,
  kind: ReadingKind,
  body: unknown,
): Promise<ReadingCreated> {
  const { ledger, read, consistency, writer } = deps;
  const user = req.user!;
  if (user.status === 'blocked')
    throw new HttpError(403, 'account_blocked', readingMessages.accountBlocked);
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
  if (balance < cost) throw insufficientCredits(cost, balance);

  const reading = { readingId: randomUUID(), userId: user.id, spendId: randomUUID() };
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
    console.error(`Reading ${reading.readingId} (${kind}) could not be written:`, error);
    const failed = await abandonReading(ledger, reading, 'generation_failed', req.context);
    await consistency.settle(req, failed.position);
    throw generationFailed();
  }

  try {
    const completed = await ledger.reading(
      reading.readingId,
      { type: 'CompleteReading', result, writer: writer.id },
      req.context,
    );
    await consistency.settle(req, completed.position);
  } catch (error) {
    // Given up on meanwhile (and refunded): the text came too late.
    if (isDomainError(error) && error.code === 'reading_failed') throw generationFailed();
    await abandonReading(ledger, reading, 'generation_failed', req.context).catch(() => {});
    throw error;
  }
  return { readingId: reading.readingId, appId, remainingCredits, result };
}
