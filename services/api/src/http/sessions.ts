import { createHash, randomBytes } from 'node:crypto';
import type { SqlClient } from '@astra/event-store';
import type { Profile, ProjectionProgress } from '@astra/projections';
import { READ_SCHEMA } from '@astra/projections';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.ts';
import { APP_SCHEMA, type AppDb } from '../storage/appDatabase.ts';
import { cookieFrom } from './cookies.ts';

const LIFETIME_MS = 7 * 86_400_000;
/** A session used again after this long gets its expiry pushed back (and a fresh cookie). */
const RENEW_AFTER_MS = 86_400_000;

export interface Session {
  idHash: string;
  userId: string;
  expiresAt: Date;
  adminUnlockedUntil: Date | null;
  /** The latest global position this session wrote: its reads wait for the read models to pass it. */
  lastPosition: bigint | null;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

// Every API request runs it: a named statement, prepared once per connection. PostgreSQL plans it
// again after a migration or a rebuild's schema swap; the profile stays one jsonb column, since a
// prepared statement whose result columns changed (`p.*` after a new column) would fail.
const sessionWithProfileSql = `
SELECT s.user_id, s.expires_at, s.admin_unlocked_until, s.last_position::text AS last_position,
       to_jsonb(p) AS profile
FROM ${APP_SCHEMA}.sessions s
LEFT JOIN ${READ_SCHEMA}.profiles p ON p.id = s.user_id
WHERE s.id_hash = $1 AND s.expires_at > now()`;

type SessionRow = {
  user_id: string;
  expires_at: Date;
  admin_unlocked_until: Date | null;
  last_position: string | null;
  profile: Profile | null;
};

/**
 * Cookie sessions kept in the database. The cookie holds a random token (HttpOnly, SameSite=Lax,
 * Secure in production); the table holds its hash, the user, the admin unlock and the last
 * position the session wrote. One query per request loads the session and the user's profile.
 */
export class Sessions {
  private readonly cookieName: string;
  private readonly secure: boolean;

  constructor(
    private readonly sql: SqlClient,
    private readonly app: AppDb,
    private readonly progress: ProjectionProgress,
    private readonly readTimeoutMs: number,
    config: Config,
  ) {
    this.cookieName = config.SESSION_COOKIE;
    this.secure = config.NODE_ENV === 'production';
  }

  /** Loads `req.session` and `req.user` when the request carries a live session. */
  readonly middleware: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    const token = cookieFrom(req, this.cookieName);
    if (!token) return next();
    const idHash = hashOf(token);
    let row = await this.find(idHash);
    if (!row) {
      this.clearCookie(res);
      return next();
    }
    const lastPosition = row.last_position === null ? null : BigInt(row.last_position);
    // Read-your-writes: the profile must include this session's own last write.
    if (lastPosition !== null && this.progress.position < lastPosition) {
      await this.progress.waitFor(lastPosition, this.readTimeoutMs);
      row = (await this.find(idHash)) ?? row;
    }
    req.session = {
      idHash,
      userId: row.user_id,
      expiresAt: new Date(row.expires_at),
      adminUnlockedUntil: row.admin_unlocked_until && new Date(row.admin_unlocked_until),
      lastPosition,
    };
    if (row.profile)
      req.user = {
        ...row.profile,
        created_at: new Date(row.profile.created_at),
        updated_at: new Date(row.profile.updated_at),
      };
    if (req.session.expiresAt.getTime() - Date.now() < LIFETIME_MS - RENEW_AFTER_MS) {
      await this.renew(res, token, idHash);
    }
    next();
  };

  /** Signs a user in: a new session (never an old id) and its cookie. */
  async start(req: Request, res: Response, userId: string) {
    if (req.session)
      await this.app.deleteFrom('sessions').where('id_hash', '=', req.session.idHash).execute();
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const session: Session = {
      idHash: hashOf(token),
      userId,
      expiresAt: new Date(now.getTime() + LIFETIME_MS),
      adminUnlockedUntil: null,
      lastPosition: null,
    };
    await this.app
      .insertInto('sessions')
      .values({
        id_hash: session.idHash,
        user_id: userId,
        created_at: now,
        expires_at: session.expiresAt,
      })
      .execute();
    this.setCookie(res, token);
    req.session = session;
    return session;
  }

  /** Ends this request's session. */
  async end(req: Request, res: Response) {
    if (req.session)
      await this.app.deleteFrom('sessions').where('id_hash', '=', req.session.idHash).execute();
    req.session = undefined;
    this.clearCookie(res);
  }

  /** Signs a user out everywhere. */
  async endAllOf(userId: string) {
    await this.app.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async unlockAdmin(req: Request, until: Date) {
    if (!req.session) return;
    req.session.adminUnlockedUntil = until;
    await this.app
      .updateTable('sessions')
      .set({ admin_unlocked_until: until })
      .where('id_hash', '=', req.session.idHash)
      .execute();
  }

  /** Ends the admin unlock of every session of a user (blocked, demoted or deleted admins). */
  async lockAdminOf(userId: string) {
    await this.app
      .updateTable('sessions')
      .set({ admin_unlocked_until: null })
      .where('user_id', '=', userId)
      .where('admin_unlocked_until', 'is not', null)
      .execute();
  }

  /** Locks the admin panel again for this session (the admin password is asked anew). */
  async lockAdmin(req: Request) {
    if (!req.session) return;
    req.session.adminUnlockedUntil = null;
    await this.app
      .updateTable('sessions')
      .set({ admin_unlocked_until: null })
      .where('id_hash', '=', req.session.idHash)
      .execute();
  }

  /** Remembers that this session wrote up to `position`. */
  async wrote(req: Request, position: bigint) {
    const session = req.session;
    if (!session || (session.lastPosition !== null && session.lastPosition >= position)) return;
    session.lastPosition = position;
    await this.app
      .updateTable('sessions')
      .set({ last_position: position.toString() })
      .where('id_hash', '=', session.idHash)
      .where((eb) =>
        eb.or([eb('last_position', 'is', null), eb('last_position', '<', position.toString())]),
      )
      .execute();
  }

  async purgeExpired() {
    await this.app.deleteFrom('sessions').where('expires_at', '<', new Date()).execute();
  }

  private async find(idHash: string) {
    const { rows } = await this.sql.query<SessionRow>(
      sessionWithProfileSql,
      [idHash],
      'session_with_profile',
    );
    return rows[0];
  }

  private async renew(res: Response, token: string, idHash: string) {
    await this.app
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + LIFETIME_MS) })
      .where('id_hash', '=', idHash)
      .execute();
    this.setCookie(res, token);
  }

  private setCookie(res: Response, token: string) {
    res.cookie(this.cookieName, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: LIFETIME_MS,
    });
  }

  private clearCookie(res: Response) {
    res.clearCookie(this.cookieName, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
    });
  }
}
