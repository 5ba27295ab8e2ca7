import { loadavg } from 'node:os';
import { runChaos } from '../services/api/test/chaos.ts';
import { writeSection } from './report.ts';

const SECONDS = Number(process.env.BENCH_CHAOS_SECONDS ?? 60);
const PEOPLE = Number(process.env.BENCH_CHAOS_PEOPLE ?? 12);

/** Chaos under load for a minute (the scenario of `services/api/test/chaos.ts`). */
export async function chaosBenchmark() {
  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const result = await runChaos({ seconds: SECONDS, people: PEOPLE });
  if (!result) throw new Error('The chaos benchmark needs the PostgreSQL server binaries');
  const acknowledged = Object.values(result.acknowledged).reduce((sum, n) => sum + n, 0);
  const kinds = Object.entries(result.acknowledged)
    .map(([kind, n]) => `${n} ${kind}s (p50 ${result.p50ByKind[kind]} ms)`)
    .join(', ');
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  await writeSection(
    'chaos',
    'Chaos under load (2 API processes, 2 projectors, a primary and a standby)',
    [
      {
        what: 'commands acknowledged and applied exactly once',
        measured: `${acknowledged - result.notExactlyOnce.length} of ${acknowledged}`,
        target: 'all',
        met: result.notExactlyOnce.length === 0,
      },
      {
        what: 'streams with a gap or a duplicate revision',
        measured: String(result.streamGaps.length),
        target: '0',
        met: result.streamGaps.length === 0,
      },
      {
        what: '`npm run ledger:verify` after the run',
        measured: result.verify.code === 0 ? 'clean' : `exit ${result.verify.code}`,
        target: 'clean',
        met: result.verify.code === 0,
      },
      {
        what: 'requests sent again by clients (cut off by a kill, or their process gone)',
        measured: String(result.resent),
        target: '> 0',
        met: result.resent > 0,
      },
      {
        what: 'read-your-writes violations',
        measured: String(result.readYourWritesViolations.length),
        target: '0',
        met: result.readYourWritesViolations.length === 0,
      },
      {
        what: 'throughput through the failures',
        measured: `${result.throughput.toFixed(1)} commands/s`,
        target: '—',
        met: null,
      },
      {
        what: 'command latency (first try to answer, retries included), p50 / p99 / max',
        measured: `${s(result.p50)} / ${s(result.p99)} / ${s(result.max)}`,
        target: '—',
        met: null,
      },
      {
        what: "a standby projector leading after the leader's SIGKILL",
        measured: `${result.takeoverSeconds.toFixed(2)} s`,
        target: '≤ 5 s',
        met: result.takeoverSeconds <= 5,
      },
      {
        what: 'reads served by the standby / by the primary (the processes alive at the end)',
        measured: `${result.replicaReads.replica} / ${result.replicaReads.primary}`,
        target: '—',
        met: null,
      },
    ],
    `${SECONDS} s of ${PEOPLE} simulated people, one command at a time each (sign-up, then pack purchases by signed \`checkout.session.completed\` webhooks, life-path readings, voice sessions on their first reading: the first included, the rest reactivations) and an admin adjusting their credits, each write followed by a read of it through the same session: ${kinds}. A primary and a hot standby built by \`initdb\` and \`pg_basebackup\` on this machine, two API processes (\`services/api/src/main.ts\`, \`PROJECTOR=external\`, \`DATABASE_READ_URL\` on the standby), two projector processes (\`services/projector/src/main.ts\`). A third of the way in, one API process gets SIGKILL and is started again; half way, the leading projector gets SIGKILL, a standby takes over, and it is started again. Clients send a request cut off by a kill again, the same \`Idempotency-Key\` (Stripe the same event), to the other process. Everything, PostgreSQL twice included, on the same two cores: latency here is CPU queueing more than anything. Load average when this run began: ${loadAtStart}.`,
  );
}
