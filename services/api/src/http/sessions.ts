import type { Request } from 'express';
import session from 'express-session';
import type { Config } from '../config.ts';
import type { DatabaseSessionStore } from '../storage/sessionStore.ts';

const WEEK = 7 * 86_400_000;
const DEVELOPMENT_SECRET = 'development-only-session-secret';

/** Cookie sessions kept in the database: httpOnly, SameSite=Lax, Secure in production. */
export const sessionMiddleware = (config: Config, store: DatabaseSessionStore) =>
  session({
    name: config.SESSION_COOKIE,
    secret: config.SESSION_SECRET ?? DEVELOPMENT_SECRET,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: config.NODE_ENV === 'production',
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.NODE_ENV === 'production',
      maxAge: WEEK,
    },
  });

/** A new session id for a sign-in (no fixation), holding the user. */
export const startSession = (req: Request, userId: string) =>
  new Promise<void>((resolve, reject) =>
    req.session.regenerate((error) => {
      if (error) return reject(error);
      req.session.userId = userId;
      resolve();
    }),
  );
