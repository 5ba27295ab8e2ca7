import { dataSubjectOf } from '@astra/contracts';
import { EncryptingEventStore, type Keyring, type SqlClient } from '@astra/event-store';
import { freeAllotmentKeys, legacyEmailKey, streams } from '@astra/ledger';
import { rebuildReadModels } from '@astra/projections';
import { openProjectionStorage, runCli } from './storage.ts';

/** Rows read and re-written at a time. */
const BATCH = 1000;

interface Row {
  position: string;
  stream_name: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

export interface MigrationReport {
  sealed: number;
  renamed: number;
  snapshotsDropped: number;
}

/**
 * `npm run privacy:migrate` (docs/operations.md, "Personal data"): brings a log written before
 * personal data was encrypted to today's shape, in place, with the app stopped. It seals every
 * personal field still in clear, renames the mailbox streams named by a plain SHA-256 to their
 * keyed names, drops every snapshot (they hold folds of clear data) and rebuilds the read
 * models. Each step skips what is already done: a second run changes nothing, and a run stopped
 * half way is finished by the next one.
 */
export async function migratePrivacy(
  sql: SqlClient,
  store: EncryptingEventStore,
  log: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const sealed = await sealClearFields(sql, store, log);
  const renamed = await renameMailboxStreams(sql, store, store.keyring, log);
  const { rows } = await sql.query<{ dropped: string }>(
    'WITH dropped AS (DELETE FROM snapshots RETURNING 1) SELECT count(*)::text AS dropped FROM dropped',
  );
  const snapshotsDropped = Number(rows[0]?.dropped ?? 0);
  if (sealed + renamed + snapshotsDropped > 0) {
    // The rows' old versions (in clear, under the old names) stay in the table's pages until
    // vacuumed: a full vacuum rewrites the table without them.
    // (One statement a call: VACUUM refuses to run inside a transaction.)
    await sql.exec('VACUUM FULL events');
    await sql.exec('VACUUM FULL snapshots');
  }
  return { sealed, renamed, snapshotsDropped };
}

/** Seals each event's personal fields still in clear; answers how many events it re-wrote. */
async function sealClearFields(
  sql: SqlClient,
  store: EncryptingEventStore,
  log: (line: string) => void,
) {
  // A reading's events name their requester only in its first one (older events carry no
  // `metadata.subject`).
  const readingOwners = new Map<string, string>();
  let after = '-9223372036854775808';
  let rewritten = 0;
  for (;;) {
    const { rows } = await sql.query<Row>(
      'SELECT position::text AS position, stream_name, type, data, metadata FROM events WHERE position > $1::bigint ORDER BY position LIMIT $2',
      [after, BATCH],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.position;
    const positions: string[] = [];
    const datas: string[] = [];
    for (const row of rows) {
      const userId = (row.data as { userId?: unknown } | null)?.userId;
      if (row.type === 'ReadingRequested' && typeof userId === 'string') {
        readingOwners.set(row.stream_name, userId);
      }
      const subject =
        dataSubjectOf(row.stream_name, row.data, row.metadata) ??
        readingOwners.get(row.stream_name);
      const event = {
        type: row.type,
        data: row.data,
        metadata: subject ? { ...row.metadata, subject } : row.metadata,
      };
      const sealed = await store.sealEvent(row.stream_name, event);
      if (sealed.data === row.data) continue;
      positions.push(row.position);
      datas.push(JSON.stringify(sealed.data));
    }
    if (positions.length > 0) {
      await sql.query(
        `UPDATE events SET data = u.data
         FROM unnest($1::bigint[], $2::jsonb[]) AS u(position, data)
         WHERE events.position = u.position`,
        [positions, datas],
      );
      rewritten += positions.length;
      log(`Sealed the personal fields of ${rewritten} events…`);
    }
  }
  return rewritten;
}

/**
 * The mailbox streams' old names (a plain SHA-256 of the address) and new ones (its HMAC under
 * the keyring's key), for every address of a UserRegistered event: the e-mail registry's, and
 * the free allotment's under both of its keys (`freeAllotmentKeys`).
 */
async function mailboxRenames(store: EncryptingEventStore, keyring: Keyring) {
  const renames = new Map<string, string>();
  for await (const event of store.readAll({ filter: { types: ['UserRegistered'] } })) {
    const email = (event.data as { email?: unknown }).email;
    // An erased address ('') has no stream left to name.
    if (typeof email !== 'string' || email.trim() === '') continue;
    const address = email.trim().toLowerCase();
    renames.set(streams.email(legacyEmailKey(address)), streams.email(keyring.mailboxId(address)));
    const { mailbox, legacy } = freeAllotmentKeys(address);
    for (const key of legacy ? [mailbox, legacy] : [mailbox]) {
      renames.set(
        streams.freeAllotment(legacyEmailKey(key)),
        streams.freeAllotment(keyring.mailboxId(key)),
      );
    }
  }
  return renames;
}

/** A mailbox stream that exists under both names: the app wrote to it before this ran. */
export class MailboxStreamConflictError extends Error {
  override readonly name = 'MailboxStreamConflictError';
  constructor(from: string, to: string) {
    super(
      `Both ${from} and ${to} exist: the app ran on this log before privacy:migrate finished. Merge them by hand (docs/operations.md, "Personal data")`,
    );
  }
}

async function renameMailboxStreams(
  sql: SqlClient,
  store: EncryptingEventStore,
  keyring: Keyring,
  log: (line: string) => void,
) {
  let renamed = 0;
  for (const [from, to] of await mailboxRenames(store, keyring)) {
    const { rows } = await sql.query<{ stream_name: string }>(
      'SELECT DISTINCT stream_name FROM events WHERE stream_name = ANY($1::text[])',
      [[from, to]],
    );
    const names = new Set(rows.map((row) => row.stream_name));
    if (!names.has(from)) continue;
    if (names.has(to)) throw new MailboxStreamConflictError(from, to);
    await sql.query('UPDATE events SET stream_name = $2 WHERE stream_name = $1', [from, to]);
    renamed++;
  }
  if (renamed > 0) log(`Renamed ${renamed} mailbox streams to their keyed names.`);
  return renamed;
}

const isMain = process.argv[1]?.endsWith('privacyMigrate.ts');

if (isMain) {
  await runCli(async () => {
    // Refused before the storage opens: opening it would make the keyring, and the app would
    // then start on the log in clear.
    if (process.env.KURRENTDB_CONNECTION_STRING) {
      console.error(
        'A KurrentDB log cannot be rewritten in place: privacy:migrate works on a PostgreSQL or PGlite log only (docs/operations.md, "Personal data").',
      );
      return 2;
    }
    const storage = await openProjectionStorage(process.env, { migratingPrivacy: true });
    try {
      if (!(storage.store instanceof EncryptingEventStore)) {
        throw new Error('The storage opened without its keyring: nothing can be sealed');
      }
      const report = await migratePrivacy(storage.connection.sql, storage.store, (line) =>
        console.log(line),
      );
      console.log(
        report.sealed + report.renamed + report.snapshotsDropped === 0
          ? 'Nothing left to migrate: every personal field is sealed, every mailbox stream renamed.'
          : `Sealed ${report.sealed} events, renamed ${report.renamed} mailbox streams, dropped ${report.snapshotsDropped} snapshots.`,
      );
      // Always: a run stopped before its rebuild is finished by the next one.
      console.log('Rebuilding the read models…');
      const rebuilt = await rebuildReadModels(storage.store, storage.db, { source: 'cli' });
      await storage.store.keyring.finishMigration();
      console.log(`Rebuilt the read models from ${rebuilt.events} events. The log is migrated.`);
      return 0;
    } finally {
      await storage.close();
    }
  });
}
