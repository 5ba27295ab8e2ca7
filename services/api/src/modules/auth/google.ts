import type { Profile as GoogleProfile } from 'passport-google-oauth20';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { Config } from '../../config.ts';
import type { Identity } from '../accounts/registration.ts';
import { identityFrom, passportUser, type VerifyDone } from './identity.ts';
import { oauthStateStore, type SignInStateCookies } from './signInState.ts';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/** The identity a Google profile (OpenID userinfo) gives, or the reason it cannot sign in. */
export const googleIdentity = (profile: GoogleProfile): Identity => {
  const email = profile.emails?.[0];
  const picture = profile.photos?.[0]?.value;
  return identityFrom('Google', {
    email: email?.value,
    // Google sends a boolean; some proxies of its userinfo send the string.
    emailVerified: String(email?.verified) === 'true',
    fullName: profile.displayName,
    picture,
  });
};

/**
 * Google's authorization-code flow with PKCE. The state and the code verifier wait in a signed
 * cookie (`oauthStateStore`), so passport runs without sessions.
 */
export const googleStrategy = (config: Config, cookies: SignInStateCookies) =>
  new GoogleStrategy(
    {
      clientID: config.GOOGLE_CLIENT_ID!,
      clientSecret: config.GOOGLE_CLIENT_SECRET!,
      callbackURL: `${config.PUBLIC_URL}${GOOGLE_CALLBACK_PATH}`,
      authorizationURL: config.GOOGLE_AUTHORIZATION_URL,
      tokenURL: config.GOOGLE_TOKEN_URL,
      userProfileURL: config.GOOGLE_USERINFO_URL,
      scope: ['profile', 'email'],
      pkce: true,
      state: true,
      // passport-oauth2 accepts the PKCE form of a store; its types know only the older one.
      store: oauthStateStore(cookies) as never,
    },
    (_accessToken: string, _refreshToken: string, profile: GoogleProfile, done: VerifyDone) => {
      try {
        done(null, passportUser(googleIdentity(profile)));
      } catch (error) {
        done(error);
      }
    },
  );
