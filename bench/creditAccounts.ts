import { randomUUID } from 'node:crypto';
import { type CreditEvent, SCHEMA_VERSION } from '@astra/contracts';
import type { CommandHandler } from '@astra/event-store';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  streams,
} from '@astra/ledger';

/** The benchmarks' spend: one credit for a reading (a new spend id each time). */
export const benchSpend = (): CreditCommand => ({
  type: 'SpendCredits',
  spendId: randomUUID(),
  amount: 1,
  purpose: 'reading',
  description: 'Benchmark reading',
  appId: 3,
  readingId: null,
});

/** The metadata of a command the system runs now. */
export const systemMetadata = () => ({
  occurredAt: new Date().toISOString(),
  actor: { kind: 'system' as const },
  correlationId: randomUUID(),
  causationId: null,
  schemaVersion: SCHEMA_VERSION,
});

/** Opens each account and grants it credits enough for any run (100,000,000). */
export async function openFundedAccounts(
  handler: CommandHandler<CreditAccount, CreditEvent>,
  ids: readonly string[],
) {
  for (const id of ids) {
    await handler.handle(
      streams.credits(id),
      (s) => creditAccountDecider.decide({ type: 'OpenAccount', userId: id }, s),
      systemMetadata(),
    );
    await handler.handle(
      streams.credits(id),
      (s) =>
        creditAccountDecider.decide(
          {
            type: 'GrantCredits',
            grantId: 'bench',
            kind: 'promotional',
            amount: 100_000_000,
            reason: 'Benchmark',
            tierId: null,
            reference: null,
          },
          s,
        ),
      systemMetadata(),
    );
  }
}
