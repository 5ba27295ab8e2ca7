/** The part of @nicokaiser/passport-apple (which ships no types) that sign-in uses. */
declare module '@nicokaiser/passport-apple' {
  import type { Request } from 'express';

  export interface AppleProfile {
    id: string;
    provider: 'apple';
    email?: string;
    emailVerified?: boolean;
    isPrivateEmail?: boolean;
    /** Only on the first authorization, from the form's `user` field. */
    name?: { firstName?: string; lastName?: string };
  }

  export interface AppleStrategyOptions {
    clientID: string;
    teamID: string;
    keyID: string;
    key: string;
    callbackURL?: string;
    scope?: string[];
    authorizationURL?: string;
    tokenURL?: string;
    verifyNonce?: (
      req: Request,
      nonce: string,
      done: (error: Error | null, ok: boolean) => void,
    ) => void;
  }

  export type AppleVerify = (
    accessToken: string,
    refreshToken: string,
    profile: AppleProfile,
    done: (error: unknown, user?: Express.User | false, info?: object) => void,
  ) => void;

  export class Strategy {
    name: string;
    constructor(options: AppleStrategyOptions, verify: AppleVerify);
    authenticate(req: Request, options?: object): void;
  }
}
