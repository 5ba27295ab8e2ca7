import type { Profile } from '@astra/projections';
import type { CommandContext } from '../ledger/ledger.ts';

declare module 'express-session' {
  interface SessionData {
    userId: string;
    /** Epoch ms until which the admin password unlock holds. */
    adminUnlockedUntil: number;
    /** The latest global position this session wrote: its reads wait for the read models to pass it. */
    lastPosition: string;
  }
}

declare global {
  namespace Express {
    interface Request {
      /** Actor and correlation id for the commands of this request. */
      context: CommandContext;
      /** The signed-in user's profile (set by `requireUser`). */
      user?: Profile;
    }
  }
}
