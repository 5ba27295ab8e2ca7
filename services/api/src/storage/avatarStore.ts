import { createHash } from 'node:crypto';
import type { AppDb } from './appDatabase.ts';

/** Avatar ids are the hex sha256 of the picture's bytes. */
export const AVATAR_ID = /^[0-9a-f]{64}$/;

export const avatarUrlOf = (avatarId: string) => `/api/avatars/${avatarId}`;

/** Keeps a user's picture (once, however many users upload the same bytes); its id. */
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
      .values({ avatar_id: id, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['avatar_id', 'user_id']).doNothing())
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
 * The user lets go of every picture but `keep` (null: all of them, as when the account is
 * deleted). Pictures nobody uses any more are deleted.
 */
export async function releaseAvatars(db: AppDb, userId: string, keep: string | null) {
  let released = db.deleteFrom('avatar_owners').where('user_id', '=', userId);
  if (keep) released = released.where('avatar_id', '<>', keep);
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

/** Cleaning up is best effort: a failure is logged and leaves the pictures to the next release. */
export const tryReleaseAvatars = (db: AppDb, userId: string, keep: string | null) =>
  releaseAvatars(db, userId, keep).catch((error: unknown) =>
    console.error('Could not delete unused pictures:', error),
  );
