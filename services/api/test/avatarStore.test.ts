import { openStorage } from '@astra/event-store';
import { pgliteTemplate } from '@astra/event-store/testing';
import { databaseFor } from '@astra/projections';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppDb, appTables, migrateAppTables } from '../src/storage/appDatabase.ts';
import {
  findAvatar,
  releaseAvatars,
  releaseUnusedAvatars,
  renewAvatar,
  storeAvatar,
} from '../src/storage/avatarStore.ts';

const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

// The HTTP tests run on PostgreSQL when there is one; PGlite (the embedded default) reads bytea
// its own way, so the picture store is proven on it here.
describe('the picture store on PGlite', () => {
  let close: () => Promise<void>;
  let db: AppDb;
  beforeAll(async () => {
    const storage = await openStorage({ dataDir: null, pgliteTemplate: await pgliteTemplate() });
    const kysely = databaseFor(storage.connection);
    await migrateAppTables(kysely);
    db = appTables(kysely);
    close = async () => {
      await kysely.destroy();
      await storage.close();
    };
  });
  afterAll(() => close?.());

  it('keeps the bytes once per content, and deletes them when the last user lets go', async () => {
    const id = await storeAvatar(db, 'u-1', gif, 'image/gif');
    expect(await storeAvatar(db, 'u-2', gif, 'image/gif')).toBe(id);
    const found = await findAvatar(db, id);
    expect(found?.contentType).toBe('image/gif');
    expect(found?.bytes.equals(gif)).toBe(true);

    await releaseAvatars(db, 'u-1', null);
    expect(await findAvatar(db, id)).toBeDefined();
    await releaseAvatars(db, 'u-2', id); // keeps the one in use
    expect(await findAvatar(db, id)).toBeDefined();
    await releaseAvatars(db, 'u-2', null);
    expect(await findAvatar(db, id)).toBeUndefined();
  });

  /**
   * Waits until the database's clock is past the user's ownerships (PGlite's ticks in
   * milliseconds, and an ownership dated the very moment a release looks is never let go of).
   */
  const clockPassesOwnershipsOf = async (userId: string) => {
    for (;;) {
      const { rows } = await sql<{ past: boolean }>`
        SELECT clock_timestamp() > max(created_at) AS past
        FROM ${sql.table('app.avatar_owners')} WHERE user_id = ${userId}`.execute(db);
      if (rows[0]?.past) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  // Two uploads at once, A and B, each: store, append its event, renew, release. B's event is
  // the last; A's release looked at the stream before B's event was there.
  const pictureA = Buffer.concat([gif, Buffer.from('A')]);
  const pictureB = Buffer.concat([gif, Buffer.from('B')]);
  const pictureC = Buffer.concat([gif, Buffer.from('C')]);
  const pictureD = Buffer.concat([gif, Buffer.from('D')]);

  it('keeps the picture of the last event when an earlier release looked before it and B renewed after that look', async () => {
    const a = await storeAvatar(db, 'u-3', pictureA, 'image/gif');
    const b = await storeAvatar(db, 'u-3', pictureB, 'image/gif');
    await releaseUnusedAvatars(db, 'u-3', async () => {
      // A's release sees A as the picture; then B's event is appended and B renews.
      await renewAvatar(db, 'u-3', pictureB, 'image/gif');
      return a;
    });
    expect(await findAvatar(db, b)).toBeDefined();
    // B's own release, seeing B, lets go of A.
    await clockPassesOwnershipsOf('u-3');
    await releaseUnusedAvatars(db, 'u-3', async () => b);
    expect(await findAvatar(db, a)).toBeUndefined();
    expect((await findAvatar(db, b))?.bytes.equals(pictureB)).toBe(true);
  });

  it('stores the picture of the last event again when an earlier release let go of it before B renewed', async () => {
    const a = await storeAvatar(db, 'u-4', pictureC, 'image/gif');
    const b = await storeAvatar(db, 'u-4', pictureD, 'image/gif');
    await clockPassesOwnershipsOf('u-4');
    await releaseUnusedAvatars(db, 'u-4', async () => a);
    expect(await findAvatar(db, b)).toBeUndefined();
    // B's event was appended meanwhile; its renewal brings the bytes back.
    expect(await renewAvatar(db, 'u-4', pictureD, 'image/gif')).toBe(b);
    expect((await findAvatar(db, b))?.bytes.equals(pictureD)).toBe(true);
    await releaseUnusedAvatars(db, 'u-4', async () => b);
    expect(await findAvatar(db, a)).toBeUndefined();
    expect(await findAvatar(db, b)).toBeDefined();
  });
});
