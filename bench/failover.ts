import { randomUUID } from 'node:crypto';
import type { CreditEvent } from '@astra/contracts';
import { personalData, streamDecoders } from '@astra/contracts';
import { CommandHandler, openStorage } from '@astra/event-store';
import { createThrowawayDatabase, eventually } from '@astra/event-store/testing';
import { type CreditAccount, creditAccountDecider, streams } from '@astra/ledger';
import {
  allProjections,
  databaseFor,
  migrateReadModels,
  projectorLeaders,
  READ_SCHEMA,
  readModels,
  untilProjected,
  verifyLedger,
} from '@astra/projections';
import { sql } from 'kysely';
import { leaderPid, type Replica, startReplica } from '../services/projector/test/replicas.ts';
import { benchSpend, openFundedAccounts, systemMetadata } from './creditAccounts.ts';
import { writeSection } from './report.ts';

const SECRET = 'the-master-secret-of-the-failover-bench';
const REPLICAS = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ACCOUNTS = 20;
const TAKEOVER_TARGET_MS = 5000;
const DETECTION_TARGET_MS = 1000;

const ms = (value: number) => Math.round(value).toString();
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${ms(sorted[Math.floor((sorted.length - 1) / 2)]!)} / ${ms(sorted.at(-1)!)} ms`;
};

/**
 * Projector failover (`npm run projector` with replicas), while spends keep being appended:
 * `ROUNDS` times the leader is killed with SIGKILL (the time until another process leads), and
 * `ROUNDS` times its lock's session is ended with `pg_terminate_backend` (the time until its log
 * says it stopped, and until a process leads again). Then the read models are checked against
 * a replay of the log (`ledger:verify`).
 */
export async function failoverBenchmark() {
  const database = await createThrowawayDatabase('astra_bench');
  const storage = await openStorage({
    databaseUrl: database.url,
    dataDir: null,
    personalData,
    dataKeySecret: SECRET,
  });
  const db = databaseFor(storage.connection);
  const replicas: Replica[] = [];
  let appending = true;
  try {
    await migrateReadModels(db, READ_SCHEMA);
    const handler = new CommandHandler<CreditAccount, CreditEvent>(
      storage.store,
      creditAccountDecider,
      { decode: streamDecoders.credits },
    );
    const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
    await openFundedAccounts(handler, accounts);
    let spends = 0;
    const writer = (async () => {
      while (appending) {
        const account = accounts[spends % ACCOUNTS]!;
        await handler.handle(
          streams.credits(account),
          (s) => creditAccountDecider.decide(benchSpend(), s),
          systemMetadata(),
        );
        spends++;
      }
    })();

    const env = { DATABASE_URL: database.url, DATA_KEY_SECRET: SECRET, LOG_LEVEL: 'info' };
    const start = async () => {
      const replica = startReplica(env);
      replicas.push(replica);
      await replica.line(/waiting to lead/);
      return replica;
    };
    for (let i = 0; i < REPLICAS; i++) await start();
    const byPid = (pid: number) => replicas.find((r) => r.pid === pid)!;
    const currentTerm = async () => (await projectorLeaders(db))[0]?.term ?? 0;

    const takeovers: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const leader = await leaderPid(db);
      const killedAt = performance.now();
      byPid(leader).child.kill('SIGKILL');
      await leaderPid(db, leader);
      takeovers.push(performance.now() - killedAt);
      await start(); // three replicas again
    }

    const detections: number[] = [];
    const retakes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const leader = await leaderPid(db);
      const term = await currentTerm();
      const terminatedAt = performance.now();
      await sql`SELECT pg_terminate_backend(backend_pid) FROM public.projector_leaders`.execute(db);
      const [stopped] = await Promise.all([
        byPid(leader).line(/No longer leading/, terminatedAt),
        eventually(async () => (await currentTerm()) > term),
      ]);
      detections.push(stopped - terminatedAt);
      retakes.push(performance.now() - terminatedAt);
    }

    appending = false;
    await writer;
    await untilProjected(
      db,
      allProjections.map((p) => p.name),
      60_000,
    );
    await Promise.all(replicas.map((r) => r.stop()));
    const report = await verifyLedger(storage.store, db);
    const entries = await readModels(db)
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    // Every event of this log is a credit event, each one ledger entry: none twice, none missing.
    const { rows: counted } = await sql<{
      events: string;
    }>`SELECT count(*)::text AS events FROM public.events`.execute(db);
    const events = Number(counted[0]!.events);

    await writeSection(
      'failover',
      'Projector failover (PostgreSQL, three `npm run projector` processes)',
      [
        {
          what: `leader killed (SIGKILL) until another process leads, median / max of ${ROUNDS}`,
          measured: spread(takeovers),
          target: `≤ ${TAKEOVER_TARGET_MS} ms`,
          met: Math.max(...takeovers) <= TAKEOVER_TARGET_MS,
        },
        {
          what: `leader's lock session ended (pg_terminate_backend) until its log says it stopped applying, median / max of ${ROUNDS}`,
          measured: spread(detections),
          target: `≤ ${DETECTION_TARGET_MS} ms`,
          met: Math.max(...detections) <= DETECTION_TARGET_MS,
        },
        {
          what: `… until a process leads again (a new term), median / max of ${ROUNDS}`,
          measured: spread(retakes),
          target: `≤ ${TAKEOVER_TARGET_MS} ms`,
          met: Math.max(...retakes) <= TAKEOVER_TARGET_MS,
        },
        {
          what: 'afterwards: ledger:verify differences / ledger entries / credit events in the log (spends appended meanwhile)',
          measured: `${report.differences.length} / ${Number(entries.count).toLocaleString('en-US')} / ${events.toLocaleString('en-US')} (${spends.toLocaleString('en-US')})`,
          target: '0 differences; one entry per event',
          met:
            report.differences.length === 0 &&
            report.behind.length === 0 &&
            Number(entries.count) === events,
        },
      ],
      `${REPLICAS} projector processes (\`services/projector/src/main.ts\`, as \`npm run projector\` runs it) on one PostgreSQL while one loop appends spends on ${ACCOUNTS} accounts without pause. Standbys try the leader lock every 500 ms; the leader checks its lock every 250 ms (600 ms timeout) and listens for its connection's end. Times are taken by the benchmark: from the signal (or the terminate) to the first poll (every 20 ms) of \`projector_leaders\` (joined with \`pg_locks\`) that shows a new leader, or to the arrival of the leader's "No longer leading" log line. Each killed replica is replaced, so ${REPLICAS} run throughout. \`BENCH_ROUNDS\` changes the number of rounds.`,
    );
  } finally {
    appending = false;
    await Promise.all(replicas.map((r) => r.stop()));
    await db.destroy();
    await storage.close();
    await database.drop();
  }
}
