/**
 * Measures what docs/readings.md reports: natal chart computation time (median of many runs),
 * place-suggestion latency (p50/p95) and the process RSS once the places are loaded.
 * Run: npx tsx packages/readings/bench/measure.ts
 */
import { computeNatalChart, preloadPlaces, suggestPlaces } from '../src/index.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rssStart = process.memoryUsage().rss;

// Natal charts: 2000 different moments and places (warm-up first).
const moments = Array.from({ length: 2000 }, (_, i) => {
  const day = 1 + (i % 28);
  const month = 1 + (i % 12);
  const year = 1900 + (i % 125);
  return {
    date: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    time: `${String(i % 24).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
    latitude: -60 + ((i * 37) % 125),
    longitude: -180 + ((i * 53) % 360),
    timezone: ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'UTC'][
      i % 5
    ]!,
  };
});
for (const m of moments.slice(0, 200)) computeNatalChart(m);
const chartTimes: number[] = [];
for (const m of moments) {
  const t = performance.now();
  computeNatalChart(m);
  chartTimes.push(performance.now() - t);
}
chartTimes.sort((a, b) => a - b);
console.log(
  `natal chart: median ${percentile(chartTimes, 0.5).toFixed(3)} ms, p95 ${percentile(chartTimes, 0.95).toFixed(3)} ms over ${chartTimes.length} charts`,
);

// Places: load once, then type-ahead queries of every length.
const loadStart = performance.now();
preloadPlaces();
const loadMs = performance.now() - loadStart;
const queries = [
  'a',
  'b',
  's',
  'sa',
  'san',
  'san f',
  'par',
  'paris',
  'paris, us',
  'lon',
  'london, ca',
  'new y',
  'm',
  'mü',
  'ber',
  'tok',
  'z',
  'zür',
  'sao',
  'k',
  'ch',
  'st ',
  'xqzz',
];
for (const q of queries) suggestPlaces(q);
const suggestTimes: number[] = [];
for (let r = 0; r < 100; r++) {
  for (const q of queries) {
    const t = performance.now();
    suggestPlaces(q);
    suggestTimes.push(performance.now() - t);
  }
}
suggestTimes.sort((a, b) => a - b);
console.log(`places: loaded and indexed in ${loadMs.toFixed(0)} ms`);
console.log(
  `suggestPlaces: p50 ${percentile(suggestTimes, 0.5).toFixed(3)} ms, p95 ${percentile(suggestTimes, 0.95).toFixed(3)} ms, max ${suggestTimes[suggestTimes.length - 1]!.toFixed(3)} ms over ${suggestTimes.length} queries`,
);
(globalThis as { gc?: () => void }).gc?.();
const mem = process.memoryUsage();
console.log(
  `memory: RSS ${mb(mem.rss)} (at start ${mb(rssStart)}), heap used ${mb(mem.heapUsed)}, external+array buffers ${mb(mem.external + mem.arrayBuffers)}`,
);
