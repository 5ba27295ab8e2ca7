import type { ProjectorLeader } from '@astra/contracts';
import { type Kysely, sql } from 'kysely';

/**
 * Which projector process leads (`npm run projector` with replicas). The leader holds a session
 * advisory lock (`LEADER_LOCK`, the hash of the projections it runs) on a connection of its own,
 * and records itself in `public.projector_leaders` with a term one higher than the last. The table
 * sits beside the log, not in the read schema a rebuild swaps.
 *
 * Fencing: each batch of a leader reads its row `FOR SHARE` (`stillLeads`) and commits only when
 * the term is still its own and its lock session still holds the lock. A new leader's term
 * (`CLAIM_SQL`) waits for those batches to commit, and every later batch of the old leader fails.
 */
export const LEADER_LOCK = 730_511;

const LEADERS_TABLE = 'public.projector_leaders';

/** Whether the backend `pid` holds the leader lock of the projections `name` (SQL expressions). */
const lockHeld = (pid: string, name: string) => `EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND classid = ${LEADER_LOCK}::oid AND objid = hashtext(${name})::oid
    AND objsubid = 2 AND pid = ${pid} AND granted)`;

/** Made once, by whichever process leads first (the transaction lock keeps two from racing). */
export const LEADERS_TABLE_SQL = `BEGIN;
SELECT pg_advisory_xact_lock(${LEADER_LOCK}, 0);
CREATE TABLE IF NOT EXISTS ${LEADERS_TABLE} (
  name text PRIMARY KEY,
  term bigint NOT NULL,
  pid integer NOT NULL,
  host text NOT NULL,
  backend_pid integer NOT NULL,
  since timestamptz NOT NULL
);
COMMIT`;

/** `$1`: the projections. Takes the lock for this session if it is free. */
export const TRY_LOCK_SQL = `SELECT pg_try_advisory_lock(${LEADER_LOCK}, hashtext($1)) AS held`;

/** `$1`: the projections. Whether this session still holds the lock (the heartbeat). */
export const HOLDS_LOCK_SQL = `SELECT ${lockHeld('pg_backend_pid()', '$1')} AS held`;

/** `$1` projections, `$2` process id, `$3` host: records this session as leader, the next term. */
export const CLAIM_SQL = `INSERT INTO ${LEADERS_TABLE} AS leader (name, term, pid, host, backend_pid, since)
VALUES ($1, 1, $2, $3, pg_backend_pid(), now())
ON CONFLICT (name) DO UPDATE SET term = leader.term + 1, pid = EXCLUDED.pid,
  host = EXCLUDED.host, backend_pid = EXCLUDED.backend_pid, since = EXCLUDED.since
RETURNING term::text AS term`;

/** A batch's check that its projector still leads: false rolls the batch back. */
export async function stillLeads(trx: Kysely<unknown>, name: string, term: bigint) {
  const { rows } = await sql<{ term: string; held: boolean }>`
    SELECT leader.term::text AS term, ${sql.raw(lockHeld('leader.backend_pid', 'leader.name'))} AS held
    FROM ${sql.table(LEADERS_TABLE)} AS leader WHERE leader.name = ${name}
    FOR SHARE OF leader`.execute(trx);
  return rows[0]?.held === true && BigInt(rows[0].term) === term;
}

/** The processes that lead now (none when no `npm run projector` runs, or none leads yet). */
export async function projectorLeaders(db: Kysely<unknown>): Promise<ProjectorLeader[]> {
  const { rows: made } = await sql<{
    made: boolean;
  }>`SELECT to_regclass(${LEADERS_TABLE}) IS NOT NULL AS made`.execute(db);
  if (!made[0]?.made) return [];
  const { rows } = await sql<{
    name: string;
    term: string;
    pid: number;
    host: string;
    since: Date;
  }>`SELECT name, term, pid, host, since FROM ${sql.table(LEADERS_TABLE)} AS leader
    WHERE ${sql.raw(lockHeld('leader.backend_pid', 'leader.name'))} ORDER BY name`.execute(db);
  return rows.map((row) => ({
    projections: row.name.split(','),
    term: Number(row.term),
    pid: row.pid,
    host: row.host,
    since: new Date(row.since).toISOString(),
  }));
}
