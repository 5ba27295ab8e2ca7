/**
 * The event log. `position` encodes (transaction id, ordinal in that transaction): transaction
 * ids below the reader's snapshot xmin belong to finished transactions, so reading positions
 * below `xmin << ORDINAL_BITS` never skips an event that a slower concurrent transaction
 * commits later (see docs/architecture.md, "Global order").
 */
export const ORDINAL_BITS = 20n;
export const MAX_EVENTS_PER_TRANSACTION = 1n << ORDINAL_BITS;

/**
 * `events_type_position` serves reads filtered by event type (the ledger explorer, admin
 * activity): each type's events in position order, so a rare type costs its own events, not a
 * walk of the whole log. On a database from before it, the first start builds it (a plain
 * `CREATE INDEX`: appends wait while it builds, about a second per million events).
 */
export const createEventsTable = `
SELECT pg_advisory_xact_lock(7305110001);
CREATE TABLE IF NOT EXISTS events (
  position     bigint      PRIMARY KEY,
  stream_name  text        NOT NULL,
  revision     bigint      NOT NULL,
  event_id     uuid        NOT NULL,
  type         text        NOT NULL,
  data         jsonb       NOT NULL,
  metadata     jsonb       NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT events_stream_revision_key UNIQUE (stream_name, revision),
  CONSTRAINT events_event_id_key UNIQUE (event_id)
);
CREATE INDEX IF NOT EXISTS events_type_position ON events (type, position);
`;
