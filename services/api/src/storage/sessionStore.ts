import session from 'express-session';
import type { AppDb } from './appDatabase.ts';

const DAY = 86_400_000;

/** express-session's store on our own database, so sessions live in PGlite or PostgreSQL. */
export class DatabaseSessionStore extends session.Store {
  constructor(private readonly db: AppDb) {
    super();
  }

  override get(
    sid: string,
    callback: (error: unknown, session?: session.SessionData | null) => void,
  ) {
    this.db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('sid', '=', sid)
      .executeTakeFirst()
      .then((row) =>
        callback(
          null,
          row && row.expires_at > new Date() ? (row.data as unknown as session.SessionData) : null,
        ),
      )
      .catch((error) => callback(error));
  }

  override set(sid: string, data: session.SessionData, callback?: (error?: unknown) => void) {
    const expires = data.cookie?.expires
      ? new Date(data.cookie.expires)
      : new Date(Date.now() + DAY);
    const userId = (data as { userId?: string }).userId ?? null;
    this.db
      .insertInto('sessions')
      .values({ sid, user_id: userId, data: JSON.stringify(data), expires_at: expires })
      .onConflict((oc) =>
        oc
          .column('sid')
          .doUpdateSet({ user_id: userId, data: JSON.stringify(data), expires_at: expires }),
      )
      .execute()
      .then(() => callback?.())
      .catch((error) => callback?.(error));
  }

  override touch(sid: string, data: session.SessionData, callback?: (error?: unknown) => void) {
    const expires = data.cookie?.expires
      ? new Date(data.cookie.expires)
      : new Date(Date.now() + DAY);
    this.db
      .updateTable('sessions')
      .set({ expires_at: expires })
      .where('sid', '=', sid)
      .execute()
      .then(() => callback?.())
      .catch((error) => callback?.(error));
  }

  override destroy(sid: string, callback?: (error?: unknown) => void) {
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(() => callback?.())
      .catch((error) => callback?.(error));
  }

  /** Signs a user out everywhere. */
  async destroyAllOf(userId: string) {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async purgeExpired() {
    await this.db.deleteFrom('sessions').where('expires_at', '<', new Date()).execute();
  }
}
