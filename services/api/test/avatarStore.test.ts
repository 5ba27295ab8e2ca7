import { openStorage } from '@astra/event-store';
import { pgliteTemplate } from '@astra/event-store/testing';
import { databaseFor } from '@astra/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppDb, appTables, migrateAppTables } from '../src/storage/appDatabase.ts';
import { findAvatar, releaseAvatars, storeAvatar } from '../src/storage/avatarStore.ts';

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
});
