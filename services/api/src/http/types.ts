import type { Profile } from '@astra/projections';
import type { CommandContext } from '../ledger/ledger.ts';
import type { Session } from './sessions.ts';

declare global {
  namespace Express {
    /** Passport's name for the signed-in user: here, always the user's profile. */
    interface User extends Profile {}

    interface Request {
      /** Actor and correlation id for the commands of this request. */
      context: CommandContext;
      /** The session the request's cookie names, when it is live. */
      session?: Session | undefined;
      /** This user's `Idempotency-Key`, when the request has one (see `commandIdOf`). */
      idempotencyKey?: string | undefined;
      /** The acting user is an active admin on their own user stream (`requireActiveAdmin`). */
      activeAdmin?: boolean;
      /** The signed-in user's profile, as of this session's own last write. */
      user?: User | undefined;
    }
  }
}
