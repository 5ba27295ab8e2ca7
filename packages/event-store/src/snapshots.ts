import type { SqlClient } from './postgres/sql-client.ts';

/**
 * Snapshots: a fold of a stream kept beside the log, never instead of it. A snapshot says what a
 * fold (`kind`, in the shape of its `version`) made of a stream's events up to `revision`; a
 * reader starts from it and replays only the events after it. A fold whose shape changes takes a
 * new version, and the snapshots of the old one are ignored (and made again as replays pass).
 * Dropping them all (`TRUNCATE snapshots`) loses nothing: replays make them again.
 */
export interface Snapshot<State = unknown> {
  revision: bigint;
  position: bigint;
  /** The newest `occurredAt` among the events folded in (ISO instant). */
  latestAt: string;
  state: State;
}

export interface SnapshotStore {
  /**
   * The snapshot of the highest revision of `stream` by fold `kind` at `version`, of those whose
   * events all happened at or before `atOrBefore` when it is given; null when none.
   */
  latest<State>(
    stream: string,
    kind: string,
    version: number,
    options?: { atOrBefore?: string },
  ): Promise<Snapshot<State> | null>;
  /**
   * Keeps a snapshot (one that exists already is left as it is: a fold of a log never changes).
   * `replace`: this becomes the stream's one snapshot of this kind and version (the others, and
   * those of older versions, are dropped), for a reader that only ever starts from the latest (a
   * newer version's are left to the processes that run it, while a deployment rolls).
   */
  save<State>(
    stream: string,
    kind: string,
    version: number,
    snapshot: Snapshot<State>,
    options?: { replace?: boolean },
  ): Promise<void>;
}

const createSnapshotsTable = `
SELECT pg_advisory_xact_lock(7305110002);
CREATE TABLE IF NOT EXISTS snapshots (
  stream_name text        NOT NULL,
  kind        text        NOT NULL,
  version     integer     NOT NULL,
  revision    bigint      NOT NULL,
  position    bigint      NOT NULL,
  latest_at   timestamptz NOT NULL,
  state       jsonb       NOT NULL,
  taken_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_name, kind, version, revision)
);
`;

const latestSql = `
SELECT revision::text AS revision, position::text AS position,
  to_char(latest_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS latest_at, state::text AS state
FROM snapshots
WHERE stream_name = $1 AND kind = $2 AND version = $3 AND ($4::timestamptz IS NULL OR latest_at <= $4::timestamptz)
ORDER BY snapshots.revision DESC
LIMIT 1`;

const replaceSql = `
WITH replaced AS (
  DELETE FROM snapshots
  WHERE stream_name = $1 AND kind = $2 AND (version < $3 OR (version = $3 AND revision <> $4::bigint))
)
INSERT INTO snapshots (stream_name, kind, version, revision, position, latest_at, state)
VALUES ($1, $2, $3, $4::bigint, $5::bigint, $6::timestamptz, $7::jsonb)
ON CONFLICT DO NOTHING`;

const saveSql = `
INSERT INTO snapshots (stream_name, kind, version, revision, position, latest_at, state)
VALUES ($1, $2, $3, $4::bigint, $5::bigint, $6::timestamptz, $7::jsonb)
ON CONFLICT DO NOTHING`;

/** Snapshots in PostgreSQL (or PGlite): the `snapshots` table beside `events`. */
export class PostgresSnapshotStore implements SnapshotStore {
  private constructor(private readonly sql: SqlClient) {}

  static async open(sql: SqlClient) {
    await sql.exec(createSnapshotsTable);
    return new PostgresSnapshotStore(sql);
  }

  async latest<State>(
    stream: string,
    kind: string,
    version: number,
    { atOrBefore }: { atOrBefore?: string } = {},
  ): Promise<Snapshot<State> | null> {
    const { rows } = await this.sql.query<{
      revision: string;
      position: string;
      latest_at: string;
      state: string;
    }>(latestSql, [stream, kind, version, atOrBefore ?? null], 'snapshots_latest');
    const row = rows[0];
    if (!row) return null;
    return {
      revision: BigInt(row.revision),
      position: BigInt(row.position),
      latestAt: row.latest_at,
      state: JSON.parse(row.state) as State,
    };
  }

  async save<State>(
    stream: string,
    kind: string,
    version: number,
    snapshot: Snapshot<State>,
    { replace = false }: { replace?: boolean } = {},
  ) {
    await this.sql.query(
      replace ? replaceSql : saveSql,
      [
        stream,
        kind,
        version,
        snapshot.revision.toString(),
        snapshot.position.toString(),
        snapshot.latestAt,
        JSON.stringify(snapshot.state),
      ],
      replace ? 'snapshots_replace' : 'snapshots_save',
    );
  }
}
