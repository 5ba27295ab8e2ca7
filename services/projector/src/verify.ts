import { randomUUID } from 'node:crypto';
import { moneyInvariantLine, READ_SCHEMA, verifyLedger } from '@astra/projections';
import { type Kysely, sql } from 'kysely';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * Keeps the result for the admin panel's projections page (`verify_runs`, migration 011; the
 * newest 100 are kept, and the first 1,000 lines of each), as the panel's own runs are kept.
 */
async function recordResult(db: Kysely<unknown>, ok: boolean, printed: string[]) {
  const lines =
    printed.length > 1000
      ? [...printed.slice(0, 999), `… and ${printed.length - 999} more lines`]
      : printed;
  const table = sql.table(`${READ_SCHEMA}.verify_runs`);
  try {
    await sql`INSERT INTO ${table} (id, at, ok, lines, source)
      VALUES (${randomUUID()}, now(), ${ok}, ${JSON.stringify(lines)}::jsonb, 'cli')`.execute(db);
    await sql`DELETE FROM ${table} WHERE id IN (
      SELECT id FROM ${table} ORDER BY at DESC OFFSET 100)`.execute(db);
  } catch (error) {
    console.error(`The result was not recorded for the admin panel: ${String(error)}`);
  }
}

/**
 * `npm run ledger:verify`: replays every credit stream and compares it with `profiles` and
 * `ledger_entries`, checks the money invariant in each currency (cash to date = recognized to
 * date + admin deductions to date + deferred now + tax payable, and the events' deferred = the
 * value the lots hold), and checks that every
 * projection has reached the log's head. Exits 0 when
 * all agree, 1 listing every difference and every projection left behind, 2 when it cannot run.
 */
await runCli(async () => {
  const storage = await openProjectionStorage();
  // What it prints is also its record (`recordResult`).
  const printed: string[] = [];
  const print = (line: string) => {
    printed.push(line);
    console.log(line);
  };
  try {
    const report = await verifyLedger(storage.store, storage.db);
    for (const difference of report.differences) print(`DIFFERENCE ${difference}`);
    for (const { name, position, head } of report.behind) {
      print(
        `BEHIND projection ${name} is at position ${position}, the log's head is ${head}: it is failed or not running (see GET /api/health)`,
      );
    }
    // The money invariant, per currency (see docs/finance.md).
    for (const m of report.money) print(moneyInvariantLine(m));
    const { count, credits } = report.voiceReactivations;
    const summary = `${report.accounts} accounts, ${report.events} credit events up to position ${report.position}, of which ${count} voice reactivation${count === 1 ? '' : 's'} (${credits} credits)`;
    if (report.differences.length === 0 && report.behind.length === 0) {
      print(`Ledger verified: ${summary}; read models agree.`);
      await recordResult(storage.db, true, printed);
      return 0;
    }
    const problems = [
      report.differences.length ? `${report.differences.length} differences` : '',
      report.behind.length
        ? `${report.behind.length} projection${report.behind.length === 1 ? '' : 's'} behind the log (${report.behind.map((b) => b.name).join(', ')})`
        : '',
    ].filter(Boolean);
    print(`Ledger verification FAILED: ${problems.join(', ')} (${summary}).`);
    await recordResult(storage.db, false, printed);
    return 1;
  } finally {
    await storage.close();
  }
});
