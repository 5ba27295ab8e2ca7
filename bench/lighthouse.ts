import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumLaunchOptions, chromiumPath } from '../web/e2e/chromium.ts';
import { writeSection } from './report.ts';

const ROOT = join(import.meta.dirname, '..');
const PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 3319);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/** How the pages meet their targets, and what it costs (profiled: Lighthouse's breakdowns). */
const CAUSES = [
  "How: each of these pages is drawn on the server for the visit (`services/api/src/http/drawnPages.ts`, with the answers the API gives that visitor), so its HTML arrives complete and styled: the largest paint is the HTML's own, and no script runs before it. The app (some 300 KB of scripts: react-dom, Chakra UI's styled system, which computes the theme in the browser, react-router, RTK Query) starts only when the visitor first reaches for a control (`web/src/boot.ts`), and what they pressed before it ran then happens. Until then the page runs one small script (the visitor counter), so there is no long task to block input. With the app starting at once (the public pages prerendered at build time and hydrated as they arrived, the signed-in ones drawn by the app), this machine gave 57–65 on the same pages: 3–4 s of blocking time at Lighthouse's 4× CPU on the public pages, a first paint after 5 s on the signed-in ones, most of it Chakra's `createSystem`, hydration and the download of the scripts.",
  'The cost moves to the visitor\'s first press, which waits for the scripts to run (about a second on a mid-range phone; they are cached after the first visit), and to the server, which renders each such page twice or more (once to start its queries, once with their answers): the figure "server time to draw" in the table. Pages with a query in their address, and the forms and tools, are still drawn in the browser, with their first requests preloaded.',
  "What keeps the main thread short before the app starts: the styles carry no vendor-prefixed copies (emotion runs without its prefixer, `web/src/ui/emotionCache.ts`; they were a fifth of the landing page's HTML), and nothing loads the browser's locale data (the visitor counter groups its thousands itself: a page's first `toLocaleString` is a task of some 50 ms, 200–370 ms at Lighthouse's 4× CPU). What remains is reading and laying out the HTML (the styles are most of it, above), 30–60 ms on this machine; the same landing page with no styles at all takes most of that time to lay out here, so fewer styles would gain little. Under load from other work the same page measures in the 80s, and Lighthouse now and then fails to record a run (a 0, named below).",
].join('\n\n');

const TARGETS = { performance: 90, accessibility: 100, 'best-practices': 100, seo: 95 };
const LCP_MS = 2500;
const TBT_MS = 200;

interface Run {
  scores: Record<keyof typeof TARGETS, number>;
  lcp: number;
  tbt: number;
  scripts: string[];
  failing: string[];
  consoleErrors: string[];
  /** Why Lighthouse could not measure the page in this run (its scores are then 0). */
  runtimeError: string | null;
}

/** The app as `npm start` runs it (production build), on its own port and a throwaway PGlite. */
async function startApp(): Promise<{ app: ChildProcess; stop(): void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'astra-lighthouse-'));
  const app = spawn('npm', ['start'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      PUBLIC_URL: BASE,
      // Enough for the readings the library and the chart page show.
      FREE_CREDITS: '200',
    },
  });
  const stop = () => {
    try {
      if (app.pid) process.kill(-app.pid, 'SIGTERM');
    } catch {}
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`npm start exited with ${app.exitCode}`);
    const up = await fetch(`${BASE}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { app, stop };
    if (Date.now() > deadline) {
      stop();
      throw new Error('the app did not start within 4 minutes');
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Development sign-in (as the browser tests sign in), a few readings; the session's Cookie header. */
async function signInWithReadings() {
  const login = await fetch(`${BASE}/api/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'lighthouse@example.com', fullName: 'Ada Lovelace' }),
  });
  if (!login.ok) throw new Error(`dev-login answered ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${BASE}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { readingId: string };
  };
  const natal = await post('/readings/natal-chart', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthDate: '1815-12-10',
    birthTime: '13:00',
    city: 'London',
    country: 'United Kingdom',
    latitude: 51.5074,
    longitude: -0.1278,
  });
  await post('/readings/tarot-traditional', { firstName: 'Ada', question: 'What comes next?' });
  await post('/readings/life-path', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthDate: '1815-12-10',
  });
  // The chart page must show a chart: an unknown id would measure the 'not found' page instead.
  const saved = await fetch(`${BASE}/api/readings/${natal.readingId}`, { headers: { cookie } });
  if (!saved.ok) throw new Error(`the natal chart ${natal.readingId} answered ${saved.status}`);
  return { cookie, natalId: natal.readingId };
}

/** One Lighthouse run (mobile, simulated throttling: its defaults) in a fresh Chromium. */
async function audit(url: string, cookie: string | null): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumLaunchOptions.args],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(TARGETS),
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    const scores = Object.fromEntries(
      Object.keys(TARGETS).map((k) => [k, Math.round((lhr.categories[k]?.score ?? 0) * 100)]),
    ) as Run['scores'];
    const requests = (lhr.audits['network-requests']?.details as { items?: unknown[] })?.items;
    const scripts = ((requests ?? []) as { url: string; resourceType?: string }[])
      .filter((r) => r.resourceType === 'Script')
      .map((r) => new URL(r.url).pathname);
    // Audits of the non-performance categories that did not pass, to say why a score is short.
    const failing = Object.keys(TARGETS)
      .filter((k) => k !== 'performance')
      .flatMap((k) => lhr.categories[k]?.auditRefs ?? [])
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
      .map((a) => a!.id);
    // What the console said, when it said something: the audit's name alone does not tell.
    const consoleErrors = (
      ((lhr.audits['errors-in-console']?.details as { items?: unknown[] })?.items ?? []) as {
        description?: string;
      }[]
    ).map((item) => (item.description ?? '').slice(0, 160));
    return {
      scores,
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      scripts,
      failing,
      consoleErrors,
      runtimeError: lhr.runtimeError
        ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`.slice(0, 200)
        : null,
    };
  } finally {
    chrome.kill();
  }
}

/**
 * The server's time to answer a page's HTML (drawn for the visit), median of 5, in ms; and the
 * HTML's size, with the part of it that is styles (`<style>` elements).
 */
async function drawnPage(url: string, cookie: string | null) {
  const times: number[] = [];
  let html = '';
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const answer = await fetch(url, { headers: cookie ? { cookie } : {} });
    html = await answer.text();
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  const styles = [...html.matchAll(/<style[^>]*>[^<]*<\/style>/g)].reduce(
    (sum, [style]) => sum + style.length,
    0,
  );
  return { ms: times.sort((a, b) => a - b)[2]!, bytes: html.length, styles };
}

/** The run with the median performance score. */
const median = (runs: Run[]) =>
  [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[
    Math.floor(runs.length / 2)
  ]!;

/** The size of the scripts a page loaded, as built (raw) and gzip-compressed at level 9. */
function scriptSizes(paths: string[]) {
  let raw = 0;
  let gzip = 0;
  for (const path of new Set(paths)) {
    if (!path.startsWith('/assets/')) continue;
    const body = readFileSync(join(ROOT, 'web/dist', path));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * `npm run bench -- lighthouse`: Lighthouse (mobile, simulated throttling) on the public pages
 * and, signed in, the dashboard, the library and a natal chart; the median of RUNS runs each.
 */
export async function lighthouseBenchmark() {
  const { stop } = await startApp();
  try {
    const { cookie, natalId } = await signInWithReadings();
    const pages: { name: string; path: string; cookie: string | null }[] = [
      { name: 'landing', path: '/', cookie: null },
      { name: 'pricing', path: '/pricing', cookie: null },
      { name: 'dashboard', path: '/app', cookie },
      { name: 'library', path: '/library', cookie },
      { name: 'natal chart', path: `/natalbirthchart_result/${natalId}`, cookie },
    ];
    const figures = [];
    const notes: string[] = [];
    for (const page of pages) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(`${BASE}${page.path}`, page.cookie));
      const m = median(runs);
      const js = scriptSizes(m.scripts);
      const drawn = await drawnPage(`${BASE}${page.path}`, page.cookie);
      const label = `\`${page.path.replace(natalId, ':id')}\` (${page.name})`;
      const all = runs.map((r) => r.scores.performance).join(', ');
      figures.push(
        {
          what: `${label}: performance (runs: ${all})`,
          measured: String(m.scores.performance),
          target: `≥ ${TARGETS.performance}`,
          met: m.scores.performance >= TARGETS.performance,
        },
        {
          what: `${label}: accessibility / best practices / SEO`,
          measured: `${m.scores.accessibility} / ${m.scores['best-practices']} / ${m.scores.seo}`,
          target: `${TARGETS.accessibility} / ${TARGETS['best-practices']} / ≥ ${TARGETS.seo}`,
          met:
            m.scores.accessibility >= TARGETS.accessibility &&
            m.scores['best-practices'] >= TARGETS['best-practices'] &&
            m.scores.seo >= TARGETS.seo,
        },
        {
          what: `${label}: LCP / TBT`,
          measured: `${(m.lcp / 1000).toFixed(1)} s / ${Math.round(m.tbt)} ms`,
          target: `≤ ${LCP_MS / 1000} s / ≤ ${TBT_MS} ms`,
          met: m.lcp <= LCP_MS && m.tbt <= TBT_MS,
        },
        {
          what: `${label}: server time to draw the page's HTML (median of 5)`,
          measured: `${Math.round(drawn.ms)} ms`,
          target: '—',
          met: null,
        },
        {
          what: `${label}: its HTML (of which styles), uncompressed`,
          measured: `${kb(drawn.bytes)} (${kb(drawn.styles)})`,
          target: '—',
          met: null,
        },
        {
          what: `${label}: JavaScript loaded (${new Set(m.scripts).size} files), raw / gzip -9`,
          measured: `${kb(js.raw)} / ${kb(js.gzip)}`,
          target: '—',
          met: null,
        },
      );
      if (m.failing.length) notes.push(`${label} audits not passed: ${m.failing.join(', ')}.`);
      for (const run of runs)
        if (run.runtimeError) notes.push(`${label}: a run gave no figures (${run.runtimeError}).`);
      for (const error of new Set(m.consoleErrors)) notes.push(`${label} console: ${error}`);
    }
    await writeSection(
      'lighthouse',
      'Lighthouse on a phone (mobile, simulated throttling)',
      figures,
      `Lighthouse 12.8 (its mobile defaults: Moto G Power screen, 4× CPU slowdown, slow 4G simulated) driving Debian's Chromium headless, against the app as \`npm start\` runs it (production build, PGlite). The signed-in pages get the session cookie of a development sign-in that owns a natal chart, a tarot and a life path reading. Each page is audited ${RUNS} times, each in a fresh browser; the run with the median performance score is shown. JavaScript sizes are those of the files as built, whatever the server compresses.\n\n${CAUSES}\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
    );
  } finally {
    stop();
  }
}
