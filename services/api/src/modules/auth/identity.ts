import { z } from 'zod';
import type { Identity } from '../accounts/registration.ts';
import { SignInFailure } from './signInOutcome.ts';

export type VerifyDone = (error: unknown, user?: Express.User | false, info?: object) => void;

/**
 * Passport calls what a strategy verified its `User` (typed here as the signed-in profile). Our
 * strategies hand an `Identity` to the route, which registers it; it never reaches `req.user`.
 */
export const passportUser = (identity: Identity) => identity as unknown as Express.User;
export const identityOf = (user: Express.User) => user as unknown as Identity;

const emailSchema = z.email().max(254);

/** What a provider said about a person, checked: a usable and verified e-mail address. */
export function identityFrom(
  provider: 'Google' | 'Apple',
  claims: {
    email: string | undefined;
    emailVerified: boolean;
    fullName: string | undefined;
    picture?: string | undefined;
  },
): Identity {
  if (!claims.email || !emailSchema.safeParse(claims.email).success) {
    throw new SignInFailure(
      'email_missing',
      `${provider} did not share a usable e-mail address. Allow access to your e-mail address and try again.`,
    );
  }
  if (!claims.emailVerified) {
    throw new SignInFailure(
      'email_not_verified',
      `The e-mail address of your ${provider} account is not verified. Verify it with ${provider}, then sign in again.`,
    );
  }
  const picture = claims.picture;
  return {
    email: claims.email,
    fullName: claims.fullName?.trim().slice(0, 200) || null,
    // Only an https picture is kept: the web app shows it as it is.
    avatarUrl: picture?.startsWith('https://') && picture.length <= 2000 ? picture : null,
    provider: provider === 'Google' ? 'google' : 'apple',
  };
}
