import { ORDINAL_BITS } from './schema.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * The log's horizon: `xmin << ORDINAL_BITS`, below which every position is final (no running
 * transaction can still commit an event there). A transaction left open anywhere on the server
 * holds it back, and with it every reader (see docs/architecture.md, "the global order").
 */
export const horizonSql = `(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << ${ORDINAL_BITS})`;

/** How long a transaction may hold the horizon before it counts as stalled (readers, health). */
export const DEFAULT_HORIZON_STALL_MS = 30_000;

/** The newest committed position and the horizon, in one snapshot. */
const headAndHorizonSql = `SELECT (SELECT max(position) FROM events)::text AS head, ${horizonSql}::text AS horizon`;

/** The backend whose transaction is the oldest running one: the horizon's holder. */
const holderSql = `
SELECT pid, state, datname AS database, usename AS "user", application_name AS application,
  xact_start::text AS "transactionStart", state_change::text AS "stateChange", left(query, 200) AS query,
  floor(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS "heldForMs"
FROM pg_stat_activity
WHERE backend_xid IS NOT NULL
ORDER BY age(backend_xid) DESC
LIMIT 1`;

/** A backend holding the horizon back, as `pg_stat_activity` shows it. */
export interface HorizonHolder {
  pid: number;
  state: string | null;
  database: string | null;
  user: string | null;
  application: string | null;
  transactionStart: string | null;
  stateChange: string | null;
  /** Its current or last statement (only visible to the same user or a superuser). */
  query: string | null;
}

export async function headAndHorizon(sql: SqlClient) {
  const { rows } = await sql.query<{ head: string | null; horizon: string }>(headAndHorizonSql);
  const row = rows[0]!;
  return { head: row.head === null ? null : BigInt(row.head), horizon: BigInt(row.horizon) };
}

/** Who holds the horizon now (null: nobody, or not visible to this user; PGlite: nobody). */
export async function horizonHolder(sql: SqlClient): Promise<HorizonHolder | null> {
  return (await horizonHold(sql))?.holder ?? null;
}

/**
 * The oldest transaction that holds the horizon (one that took a transaction id) and how long
 * it has been open: for that long, no reader of the log has seen past it. Null when no
 * transaction holds one (or none this user may see).
 */
export async function horizonHold(
  sql: SqlClient,
): Promise<{ holder: HorizonHolder; heldForMs: number } | null> {
  const { rows } = await sql.query<HorizonHolder & { heldForMs: number | null }>(holderSql);
  const row = rows[0];
  if (!row) return null;
  const { heldForMs, ...holder } = row;
  return { holder, heldForMs: heldForMs ?? 0 };
}

export type HorizonHold = NonNullable<Awaited<ReturnType<typeof horizonHold>>>;

export const describeHolder = (holder: HorizonHolder | null) =>
  holder
    ? `backend ${holder.pid} (${holder.state ?? 'unknown state'}, transaction open since ${holder.transactionStart ?? '?'}, database ${holder.database ?? '?'}, application ${JSON.stringify(holder.application ?? '')}, last statement ${JSON.stringify(holder.query ?? '')})`
    : 'a transaction this user cannot see (another user, or a prepared transaction)';

/**
 * A read of the log that had to wait for a transaction that did not end: events committed after
 * that transaction began cannot be read in order until it commits or rolls back.
 */
export class LogHorizonStalledError extends Error {
  override readonly name = 'LogHorizonStalledError';
  readonly code = 'log_horizon_stalled';
  constructor(
    readonly position: bigint,
    readonly waitedMs: number,
    readonly holder: HorizonHolder | null,
  ) {
    super(
      `The event log cannot be read past position ${position}: for ${Math.round(waitedMs / 1000)} s a transaction has held its horizon back, ${describeHolder(holder)}. End it (commit, roll back, or pg_terminate_backend(${holder?.pid ?? 'pid'})) and read again.`,
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the horizon has passed `position` (every event up to it is final and visible), for
 * at most `timeoutMs`; then throws `LogHorizonStalledError` naming the transaction in the way.
 */
export async function waitForHorizon(sql: SqlClient, position: bigint, timeoutMs: number) {
  const started = performance.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    const { horizon } = await headAndHorizon(sql);
    if (horizon > position) return;
    const waited = performance.now() - started;
    if (waited >= timeoutMs)
      throw new LogHorizonStalledError(position, waited, await horizonHolder(sql));
    await sleep(Math.min(pause, timeoutMs - waited));
  }
}
