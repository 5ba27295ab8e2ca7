import { randomUUID } from 'node:crypto';
import type { CreditEvent } from '@astra/contracts';
import { streamDecoders } from '@astra/contracts';
import { CommandHandler, openStorage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { type CreditAccount, creditAccountDecider, streams } from '@astra/ledger';
import { benchSpend, openFundedAccounts, systemMetadata } from './creditAccounts.ts';
import { writeSection } from './report.ts';

const ACCOUNTS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Runs `work(account)` in a loop on each account concurrently for `seconds`; returns ops/s. */
async function throughput(seconds: number, work: (account: number) => Promise<void>) {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: ACCOUNTS }, async (_, account) => {
      while (performance.now() < deadline) {
        await work(account);
        done++;
      }
    }),
  );
  return done / seconds;
}

/**
 * Spends through the command handler (decide on the account's state, append at its revision,
 * full history kept) against the naive balance UPDATE, same database, same 16-way concurrency.
 */
export async function spendBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const storage = await openStorage({ databaseUrl: database.url, dataDir: null });
  if (storage.connection.kind !== 'postgres') throw new Error('needs PostgreSQL');
  const { pool } = storage.connection;
  try {
    const handler = new CommandHandler<CreditAccount, CreditEvent>(
      storage.store,
      creditAccountDecider,
      { decode: streamDecoders.credits },
    );
    const ids = Array.from({ length: ACCOUNTS }, () => randomUUID());
    await openFundedAccounts(handler, ids);
    await pool.query(
      'CREATE TABLE profiles (id text PRIMARY KEY, remaining_credits integer NOT NULL)',
    );
    await pool.query('INSERT INTO profiles SELECT unnest($1::text[]), 100000000', [ids]);

    const spend = (account: number) =>
      handler
        .handle(
          streams.credits(ids[account]!),
          (s) => creditAccountDecider.decide(benchSpend(), s),
          systemMetadata(),
        )
        .then(() => {});
    const naive = (account: number) =>
      pool
        .query(
          'UPDATE profiles SET remaining_credits = remaining_credits - $2 WHERE id = $1 AND remaining_credits >= $2',
          [ids[account], 1],
        )
        .then(() => {});

    await throughput(2, spend); // warm-up
    await throughput(2, naive);
    // Alternate the two in rounds, so a passing load on the machine hits both alike.
    const rounds = 4;
    let baseline = 0;
    let ledger = 0;
    for (let round = 0; round < rounds; round++) {
      baseline += (await throughput(SECONDS / rounds, naive)) / rounds;
      ledger += (await throughput(SECONDS / rounds, spend)) / rounds;
    }
    const ratio = ledger / baseline;
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM events WHERE type = 'CreditsSpent'",
    );
    await writeSection(
      'spend',
      'Spend throughput through the command handler (PostgreSQL)',
      [
        {
          what: 'naive baseline: `UPDATE profiles SET remaining_credits = remaining_credits - n WHERE … >= n`',
          measured: `${Math.round(baseline)} spends/s`,
          target: '—',
          met: null,
        },
        {
          what: 'command handler: decide on the account state, append `CreditsSpent` at the expected revision',
          measured: `${Math.round(ledger)} spends/s`,
          target: '≥ 0.7 × baseline',
          met: ratio >= 0.7,
        },
        { what: 'ratio', measured: `${ratio.toFixed(2)} ×`, target: '≥ 0.70 ×', met: ratio >= 0.7 },
      ],
      `16 accounts, one concurrent worker each, ${SECONDS} s per side in four alternating rounds after a 2 s warm-up, one \`pg\` pool (20 connections) in one Node process. Every spend of the ledger side is an event with its metadata (${rows[0].n} \`CreditsSpent\` events written, full history kept); the baseline keeps no history.`,
    );
  } finally {
    await storage.close();
    await database.drop();
  }
}
