import { rebuildReadModels } from '@astra/projections';
import { openProjectionStorage, runCli } from './storage.ts';

/** A progress line at most this often (and at each tenth of the way). */
const PROGRESS_EVERY_MS = 10_000;

/**
 * `npm run projections:rebuild`: replays every event into fresh read-model tables and swaps them
 * in, printing its progress on the way. With PGlite (no DATABASE_URL) the app must be stopped:
 * DATA_DIR belongs to one process. While a rebuild runs (from here or from the admin panel), another
 * one exits 2.
 */
await runCli(async () => {
  const storage = await openProjectionStorage();
  try {
    let shownAt = Date.now();
    let shownTenth = 0;
    const report = await rebuildReadModels(storage.store, storage.db, {
      source: 'cli',
      onProgress: ({ replayed, target }) => {
        const tenth = target > 0 ? Math.floor((replayed / target) * 10) : 0;
        if (replayed === 0 || (tenth <= shownTenth && Date.now() - shownAt < PROGRESS_EVERY_MS))
          return;
        shownAt = Date.now();
        shownTenth = Math.max(shownTenth, tenth);
        console.log(
          target > 0
            ? `Replayed ${replayed} of ${target} events (${Math.min(100, Math.floor((replayed / target) * 100))}%)…`
            : `Replayed ${replayed} events…`,
        );
      },
    });
    const rate = Math.round(report.events / (report.milliseconds / 1000));
    console.log(
      `Rebuilt the read models from ${report.events} events up to position ${report.position} in ${Math.round(report.milliseconds)} ms (${rate} events/s).`,
    );
    return 0;
  } finally {
    await storage.close();
  }
});
