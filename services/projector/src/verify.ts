import { verifyLedger } from '@astra/projections';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * `npm run ledger:verify`: replays every credit stream and compares it with `profiles` and
 * `ledger_entries`. Exits 0 when they agree, 1 listing every difference, 2 when it cannot run.
 */
await runCli(async () => {
  const storage = await openProjectionStorage();
  try {
    const report = await verifyLedger(storage.store, storage.db);
    for (const difference of report.differences) console.log(`DIFFERENCE ${difference}`);
    const summary = `${report.accounts} accounts, ${report.events} credit events up to position ${report.position}`;
    if (report.differences.length === 0) {
      console.log(`Ledger verified: ${summary}; read models agree.`);
      return 0;
    }
    console.log(
      `Ledger verification FAILED: ${report.differences.length} differences (${summary}).`,
    );
    return 1;
  } finally {
    await storage.close();
  }
});
