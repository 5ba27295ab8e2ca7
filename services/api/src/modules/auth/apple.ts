import { type AppleProfile, Strategy as AppleStrategy } from '@nicokaiser/passport-apple';
import type { Config } from '../../config.ts';
import { identityFrom, passportUser } from './identity.ts';
import { sameState } from './signInState.ts';

export const APPLE_CALLBACK_PATH = '/api/auth/apple/callback';

/**
 * Sign in with Apple. Apple posts its answer (form_post) to the callback from its own site. The
 * strategy checks the ID token's signature against Apple's keys; the route checks the state from
 * the signed cookie before it runs, and the strategy checks the nonce kept in the same cookie
 * (the route puts it in `res.locals.appleNonce`).
 */
export const appleStrategy = (config: Config) =>
  new AppleStrategy(
    {
      clientID: config.APPLE_CLIENT_ID!,
      teamID: config.APPLE_TEAM_ID!,
      keyID: config.APPLE_KEY_ID!,
      key: config.APPLE_PRIVATE_KEY!,
      callbackURL: `${config.PUBLIC_URL}${APPLE_CALLBACK_PATH}`,
      scope: ['name', 'email'],
      verifyNonce: (req, nonce, done) => {
        const expected = req.res?.locals.appleNonce;
        done(null, typeof expected === 'string' && sameState(expected, nonce));
      },
    },
    (_accessToken, _refreshToken, profile: AppleProfile, done) => {
      try {
        const name = [profile.name?.firstName, profile.name?.lastName].filter(Boolean).join(' ');
        done(
          null,
          passportUser(
            identityFrom('Apple', {
              email: profile.email,
              emailVerified: profile.emailVerified === true,
              fullName: name || undefined,
            }),
          ),
        );
      } catch (error) {
        done(error);
      }
    },
  );
