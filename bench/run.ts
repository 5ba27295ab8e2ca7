import { adminStatsBenchmark } from './adminStats.ts';
import { chaosBenchmark } from './chaos.ts';
import { coldCommandBenchmark } from './coldCommand.ts';
import { contendedBenchmark } from './contended.ts';
import { crossProcessBenchmark } from './crossProcess.ts';
import { exportMemoryBenchmark } from './exportMemory.ts';
import { failoverBenchmark } from './failover.ts';
import { financeBenchmark } from './finance.ts';
import { growthBenchmark } from './growth.ts';
import { lighthouseBenchmark } from './lighthouse.ts';
import { mailBenchmark } from './mail.ts';
import { meLoadBenchmark } from './meLoad.ts';
import { privacyBenchmark } from './privacy.ts';
import { readingStreamBenchmark } from './readingStream.ts';
import { readingsBenchmark } from './readings.ts';
import { rebuildBenchmark } from './rebuild.ts';
import { spendBenchmark } from './spend.ts';
import { startBenchmark } from './start.ts';
import { webBundleBenchmark } from './webBundle.ts';

/** `npm run bench [-- name …]`: every benchmark, or the named ones. */
const benchmarks: Record<string, () => Promise<void>> = {
  spend: spendBenchmark,
  contended: contendedBenchmark,
  'cross-process': crossProcessBenchmark,
  failover: failoverBenchmark,
  'cold-command': coldCommandBenchmark,
  rebuild: rebuildBenchmark,
  'me-load': meLoadBenchmark,
  'web-bundle': webBundleBenchmark,
  readings: readingsBenchmark,
  'reading-stream': readingStreamBenchmark,
  'admin-stats': adminStatsBenchmark,
  finance: financeBenchmark,
  growth: growthBenchmark,
  chaos: chaosBenchmark,
  'export-memory': exportMemoryBenchmark,
  privacy: privacyBenchmark,
  mail: mailBenchmark,
  lighthouse: lighthouseBenchmark,
  start: startBenchmark,
};

const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(benchmarks)) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`Unknown benchmark ${name}; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name}`);
  await run();
}
