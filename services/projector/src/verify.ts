import { verifyLedger } from '@astra/projections';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * `npm run ledger:verify`: replays every credit stream and compares it with `profiles` and
 * `ledger_entries`, and checks that every projection has reached the log's head. Exits 0 when
 * all agree, 1 listing every difference and every projection left behind, 2 when it cannot run.
 */
await runCli(async () => {
  const storage = await openProjectionStorage();
  try {
    const report = await verifyLedger(storage.store, storage.db);
    for (const difference of report.differences) console.log(`DIFFERENCE ${difference}`);
    for (const { name, position, head } of report.behind) {
      console.log(
        `BEHIND projection ${name} is at position ${position}, the log's head is ${head}: it is failed or not running (see GET /api/health)`,
      );
    }
    const { count, credits } = report.voiceReactivations;
    const summary = `${report.accounts} accounts, ${report.events} credit events up to position ${report.position}, of which ${count} voice reactivation${count === 1 ? '' : 's'} (${credits} credits)`;
    if (report.differences.length === 0 && report.behind.length === 0) {
      console.log(`Ledger verified: ${summary}; read models agree.`);
      return 0;
    }
    const problems = [
      report.differences.length ? `${report.differences.length} differences` : '',
      report.behind.length
        ? `${report.behind.length} projection${report.behind.length === 1 ? '' : 's'} behind the log (${report.behind.map((b) => b.name).join(', ')})`
        : '',
    ].filter(Boolean);
    console.log(`Ledger verification FAILED: ${problems.join(', ')} (${summary}).`);
    return 1;
  } finally {
    await storage.close();
  }
});
