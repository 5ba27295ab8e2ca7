import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from '../observability/logger.ts';
import type { AppDb } from './appDatabase.ts';

/** Avatar ids are the hex sha256 of the picture's bytes. */
export const AVATAR_ID = /^[0-9a-f]{64}$/;

export const avatarUrlOf = (avatarId: string) => `/api/avatars/${avatarId}`;

/** The id of one of our pictures from its URL; null for none or another site's picture. */
export const avatarIdOf = (avatarUrl: string | null) => {
  const id = avatarUrl?.startsWith('/api/avatars/') ? avatarUrl.slice('/api/avatars/'.length) : '';
  return AVATAR_ID.test(id) ? id : null;
};

/**
 * The database's clock. Ownership is dated by it (one clock for every API process), so that a
 * release can tell an ownership renewed after it looked at the user's picture (see
 * `releaseUnusedAvatars`).
 */
const databaseNow = sql<Date>`clock_timestamp()`;

/** A moment on the database's clock, as its text (to the microsecond, which a Date is not). */
export interface DatabaseTime {
  text: string;
}

/**
 * Dates an existing ownership now. The schema types `created_at` as written once; renewing it
 * is how this module keeps an upload's picture from a release that looked too early.
 */
const renewedNow = { created_at: databaseNow } as unknown as Record<never, never>;

/**
 * Keeps a user's picture (once, however many users upload the same bytes); its id. The user's
 * ownership is dated now, also when it already existed.
 */
export async function storeAvatar(
  db: AppDb,
  userId: string,
  bytes: Uint8Array,
  contentType: string,
) {
  const id = createHash('sha256').update(bytes).digest('hex');
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    // An update rather than nothing on conflict: it locks the row, so a release running at the
    // same time cannot delete the bytes under this new owner.
    await trx
      .insertInto('avatars')
      .values({ id, content_type: contentType, byte_size: bytes.length, bytes, created_at: now })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({ content_type: eb.ref('excluded.content_type') })),
      )
      .execute();
    await trx
      .insertInto('avatar_owners')
      .values({ avatar_id: id, user_id: userId, created_at: databaseNow })
      .onConflict((oc) => oc.columns(['avatar_id', 'user_id']).doUpdateSet(renewedNow))
      .execute();
  });
  return id;
}

export async function findAvatar(db: AppDb, id: string) {
  const row = await db
    .selectFrom('avatars')
    .select(['content_type', 'bytes'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { contentType: row.content_type, bytes: Buffer.from(row.bytes) };
}

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The user keeps owning a picture they still have the bytes of: dates the ownership now, or,
 * when a release let go of it meanwhile, stores the picture again.
 */
export async function renewAvatar(
  db: AppDb,
  userId: string,
  bytes: Uint8Array,
  contentType: string,
) {
  const id = createHash('sha256').update(bytes).digest('hex');
  const renewed = await db
    .updateTable('avatar_owners')
    .set(renewedNow)
    .where('avatar_id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (renewed.numUpdatedRows === 0n) await storeAvatar(db, userId, bytes, contentType);
  return id;
}

/**
 * The user lets go of every picture but `keep` (null: all of them, as when the account is
 * deleted); with `before`, only of those owned (or renewed) before then. Pictures nobody uses
 * any more are deleted.
 */
export async function releaseAvatars(
  db: AppDb,
  userId: string,
  keep: string | null,
  before?: DatabaseTime,
) {
  let released = db.deleteFrom('avatar_owners').where('user_id', '=', userId);
  if (keep) released = released.where('avatar_id', '<>', keep);
  if (before) {
    released = released.where('created_at', '<', sql<Date>`cast(${before.text} as timestamptz)`);
  }
  const ids = (await released.returning('avatar_id').execute()).map((row) => row.avatar_id);
  if (ids.length === 0) return;
  try {
    await db
      .deleteFrom('avatars')
      .where('id', 'in', ids)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('avatar_owners')
              .select('avatar_owners.user_id')
              .whereRef('avatar_owners.avatar_id', '=', 'avatars.id'),
          ),
        ),
      )
      .execute();
  } catch (error) {
    // Someone took the same picture meanwhile: it stays, which is right.
    if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
  }
}

/**
 * After a change of the user's picture: lets go of every picture but the one the user's stream
 * names now (`current`, read from the write side after this call started).
 *
 * Uploads run at the same time, each storing its picture, appending its `UserAvatarChanged`,
 * then renewing its ownership (`renewAvatar`) and releasing. A release may look at the stream
 * before another upload's event is appended; it lets go only of ownerships dated before it
 * looked, and that upload renews its own after its event, so whichever event is last, its
 * picture stays: either the release saw that event (and keeps it), or the renewal is later
 * than the release's look (and is not let go of), or the renewal comes after the release and
 * stores the picture again.
 */
export async function releaseUnusedAvatars(
  db: AppDb,
  userId: string,
  current: () => Promise<string | null>,
) {
  const { rows } = await sql<{ now: string }>`SELECT ${databaseNow}::text AS now`.execute(db);
  const before = { text: rows[0]!.now };
  await releaseAvatars(db, userId, await current(), before);
}

const logCleanupFailure = (log: Logger) => (error: unknown) =>
  log.warn({ err: error }, 'Could not delete unused pictures; the next release will');

/** Cleaning up is best effort: a failure is logged and leaves the pictures to the next release. */
export const tryReleaseAvatars = (db: AppDb, userId: string, keep: string | null, log: Logger) =>
  releaseAvatars(db, userId, keep).catch(logCleanupFailure(log));

/** `releaseUnusedAvatars`, best effort. */
export const tryReleaseUnusedAvatars = (
  db: AppDb,
  userId: string,
  current: () => Promise<string | null>,
  log: Logger,
) => releaseUnusedAvatars(db, userId, current).catch(logCleanupFailure(log));
