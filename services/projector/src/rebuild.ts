import { rebuildReadModels } from '@astra/projections';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * `npm run projections:rebuild`: replays every event into fresh read-model tables and swaps them
 * in. With PGlite (no DATABASE_URL) the app must be stopped: DATA_DIR belongs to one process.
 */
await runCli(async () => {
  const storage = await openProjectionStorage();
  try {
    const report = await rebuildReadModels(storage.store, storage.db);
    const rate = Math.round(report.events / (report.milliseconds / 1000));
    console.log(
      `Rebuilt the read models from ${report.events} events up to position ${report.position} in ${Math.round(report.milliseconds)} ms (${rate} events/s).`,
    );
    return 0;
  } finally {
    await storage.close();
  }
});
