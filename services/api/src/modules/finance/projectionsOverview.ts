import { randomUUID } from 'node:crypto';
import type {
  ProjectionsOverview,
  ProjectorRun,
  RebuildStatus,
  VerifyResult,
} from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import {
  allProjections,
  moneyInvariantLine,
  READ_SCHEMA,
  type ReadDb,
  type VerifyReport,
} from '@astra/projections';
import { type Kysely, sql } from 'kysely';
import { reactorStatuses } from '../../reactors/status.ts';
import type { AppDb } from '../../storage/appDatabase.ts';

/**
 * The projections page (issue 12): each projection against the log's head, the last
 * `ledger:verify` result, and the rebuild's progress. The records (`verify_runs`,
 * `rebuild_runs`) are read-model migration 011's tables, which a rebuild carries over.
 */

/** Lag is counted event by event up to this many; a lag at it means at least that many. */
export const LAG_COUNT_LIMIT = 100_000;
/** Verify results kept (the newest); and lines kept of one result. */
const VERIFY_RUNS_KEPT = 100;
const VERIFY_LINES_KEPT = 1000;
/** A running rebuild silent this long stopped without finishing (as `rebuildReadModels` has it). */
const REBUILD_STALE_SECONDS = 60;

interface Records {
  verify_runs: { id: string; at: Date; ok: boolean; lines: string[]; source: 'cli' | 'panel' };
  rebuild_runs: {
    id: string;
    source: string;
    state: 'running' | 'done' | 'failed';
    started_at: Date;
    finished_at: Date | null;
    heartbeat_at: Date;
    replayed: string | number;
    target: string | number;
    error: string | null;
    schema_name: string;
  };
}

const records = (db: Kysely<unknown>) => db.withSchema(READ_SCHEMA) as unknown as Kysely<Records>;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The newest event of the log (the head every projection is measured against). */
export async function headOf(store: EventStore): Promise<RecordedEvent | null> {
  for await (const event of store.readAll({ direction: 'backwards', batch: 1 })) return event;
  return null;
}

/**
 * Events in the log after `from` up to and including `to`, counted up to `LAG_COUNT_LIMIT`.
 * Positions are not counts (they have gaps): PostgreSQL counts rows of the events table (an
 * index-only walk of at most the limit); KurrentDB counts the events it reads.
 */
export async function eventsBetween(
  store: EventStore,
  db: Kysely<unknown>,
  from: bigint,
  to: bigint,
): Promise<number> {
  if (to <= from) return 0;
  if (store.kind !== 'kurrentdb') {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM public.events
        WHERE position > ${String(from)}::bigint AND position <= ${String(to)}::bigint
        LIMIT ${LAG_COUNT_LIMIT}
      ) AS lag`.execute(db);
    return rows[0]?.n ?? 0;
  }
  let count = 0;
  for await (const event of store.readAll({ from, batch: 1000 })) {
    if (event.position > to || count === LAG_COUNT_LIMIT) break;
    count++;
  }
  return count;
}

/** The first event after `from`, when there is one. */
async function firstAfter(store: EventStore, from: bigint) {
  for await (const event of store.readAll({ from, batch: 1 })) return event;
  return null;
}

/** The last rebuild (running or not), as the page shows it; `idle` when none ever ran. */
export async function rebuildStatusOf(db: Kysely<unknown>): Promise<RebuildStatus> {
  const run = await records(db)
    .selectFrom('rebuild_runs')
    .selectAll()
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!run) {
    return {
      state: 'idle',
      startedAt: null,
      finishedAt: null,
      replayed: 0,
      target: 0,
      error: null,
    };
  }
  const silent = Date.now() - new Date(run.heartbeat_at).getTime() > REBUILD_STALE_SECONDS * 1000;
  const dead = run.state === 'running' && silent;
  return {
    state: dead ? 'failed' : run.state,
    startedAt: iso(run.started_at),
    finishedAt: run.finished_at ? iso(run.finished_at) : null,
    replayed: Number(run.replayed),
    target: Number(run.target),
    error: dead
      ? `Stopped without finishing: no sign of life for ${REBUILD_STALE_SECONDS} s (its process ended)`
      : run.error,
  };
}

export async function lastVerifyOf(db: Kysely<unknown>): Promise<VerifyResult | null> {
  const run = await records(db)
    .selectFrom('verify_runs')
    .selectAll()
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return run ? { at: iso(run.at), ok: run.ok, lines: run.lines, source: run.source } : null;
}

/** Keeps a verify result (the newest `VERIFY_RUNS_KEPT` are kept). */
export async function recordVerifyRun(
  db: Kysely<unknown>,
  run: Omit<VerifyResult, 'at'> & { at?: string },
): Promise<VerifyResult> {
  const lines =
    run.lines.length > VERIFY_LINES_KEPT
      ? [
          ...run.lines.slice(0, VERIFY_LINES_KEPT - 1),
          `… and ${run.lines.length - VERIFY_LINES_KEPT + 1} more lines`,
        ]
      : run.lines;
  const at = run.at ?? new Date().toISOString();
  await records(db)
    .insertInto('verify_runs')
    .values({
      id: randomUUID(),
      at: new Date(at),
      ok: run.ok,
      lines: sql`${JSON.stringify(lines)}::jsonb`,
      source: run.source,
    })
    .execute();
  await records(db)
    .deleteFrom('verify_runs')
    .where(
      'id',
      'in',
      records(db)
        .selectFrom('verify_runs')
        .select('id')
        .orderBy('at', 'desc')
        .offset(VERIFY_RUNS_KEPT),
    )
    .execute();
  return { at, ok: run.ok, lines, source: run.source };
}

/**
 * The lines `npm run ledger:verify` prints for a report, problems first, and whether it passed:
 * the same words as `services/projector/src/verify.ts` (keep the two in step).
 */
export function verifyReportLines(report: VerifyReport): { ok: boolean; lines: string[] } {
  const lines = report.differences.map((difference) => `DIFFERENCE ${difference}`);
  for (const { name, position, head } of report.behind) {
    lines.push(
      `BEHIND projection ${name} is at position ${position}, the log's head is ${head}: it is failed or not running (see GET /api/health)`,
    );
  }
  for (const m of report.money ?? []) lines.push(moneyInvariantLine(m));
  const { count, credits } = report.voiceReactivations;
  const summary = `${report.accounts} accounts, ${report.events} credit events up to position ${report.position}, of which ${count} voice reactivation${count === 1 ? '' : 's'} (${credits} credits)`;
  const ok = report.differences.length === 0 && report.behind.length === 0;
  if (ok) {
    lines.push(`Ledger verified: ${summary}; read models agree.`);
    return { ok, lines };
  }
  const problems = [
    report.differences.length ? `${report.differences.length} differences` : '',
    report.behind.length
      ? `${report.behind.length} projection${report.behind.length === 1 ? '' : 's'} behind the log (${report.behind.map((b) => b.name).join(', ')})`
      : '',
  ].filter(Boolean);
  lines.push(`Ledger verification FAILED: ${problems.join(', ')} (${summary}).`);
  return { ok, lines };
}

/**
 * Each projection against the log's head:
 *
 * - `position`: its checkpoint (the last event it applied);
 * - `lagEvents`: events in the log after the checkpoint up to the head (counted, not a
 *   difference of positions, which have gaps; up to `LAG_COUNT_LIMIT`);
 * - `lagSeconds`: how long the oldest event it has not applied has been in the log (0 when it
 *   has applied everything): how stale its tables are;
 * - `status`: `failing` while it cannot apply an event (`projection_failures`, as health reports
 *   it, with the error), `stopped` when this process's projector is not running (the API's
 *   readiness), else `running` (with `PROJECTOR=external` the API sees the other process
 *   through its checkpoints, and `projector` names the process that leads);
 * - `projector`: where the projector runs (`projector.run`).
 */
export async function projectionsOverview(
  store: EventStore,
  db: Kysely<unknown>,
  read: ReadDb,
  projector: { ready: () => Promise<boolean>; run: () => Promise<ProjectorRun> },
  reactors: { appDb: AppDb; names: readonly string[] },
): Promise<ProjectionsOverview> {
  const head = await headOf(store);
  const headPosition = head?.position ?? 0n;
  const [checkpoints, failures, lastVerify, rebuild, live, run] = await Promise.all([
    read.selectFrom('checkpoints').selectAll().execute(),
    read.selectFrom('projection_failures').selectAll().execute(),
    lastVerifyOf(db),
    rebuildStatusOf(db),
    projector.ready(),
    projector.run(),
  ]);
  const positions = new Map(checkpoints.map((c) => [c.name, BigInt(c.position)]));
  const failed = new Map(failures.map((f) => [f.name, f]));
  // Projections usually share a checkpoint: each distinct one is measured once.
  const lags = new Map<bigint, Promise<{ events: number; seconds: number }>>();
  const lagOf = (position: bigint) => {
    let lag = lags.get(position);
    if (!lag) {
      lag = (async () => {
        const events = await eventsBetween(store, db, position, headPosition);
        if (events === 0) return { events, seconds: 0 };
        const oldest = await firstAfter(store, position);
        const waited = oldest ? (Date.now() - oldest.recordedAt.getTime()) / 1000 : 0;
        return { events, seconds: Math.max(0, Math.round(waited * 10) / 10) };
      })();
      lags.set(position, lag);
    }
    return lag;
  };
  const projections = await Promise.all(
    allProjections.map(async ({ name }) => {
      const position = positions.get(name) ?? 0n;
      const failure = failed.get(name);
      const lag = await lagOf(position);
      return {
        name,
        position: String(position),
        lagEvents: lag.events,
        lagSeconds: lag.seconds,
        status: failure ? ('failing' as const) : live ? ('running' as const) : ('stopped' as const),
        error: failure?.error ?? null,
      };
    }),
  );
  return {
    head: {
      position: String(headPosition),
      at: head ? head.recordedAt.toISOString() : null,
    },
    projections,
    projector: run,
    reactors: await reactorStatuses(reactors.appDb, reactors.names, lagOf),
    lastVerify,
    rebuild,
  };
}
