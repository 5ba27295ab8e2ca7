import {
  type AuthProviders,
  authProvidersSchema,
  devLoginRequestSchema,
  meSchema,
  okSchema,
  safeReturnUrl,
} from '@astra/contracts';
import express, { type Request, type RequestHandler, type Response } from 'express';
import passport from 'passport';
import {
  appleSignInEnabled,
  devSignInEnabled,
  googleSignInEnabled,
  sessionSecretOf,
} from '../../config.ts';
import type { AppDeps } from '../../dependencies.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { signInLimit } from '../../http/rateLimits.ts';
import {
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptors,
  redirect,
} from '../../http/routeDescriptors.ts';
import type { Logger } from '../../observability/logger.ts';
import { profileOf } from '../accounts/queries.ts';
import { type Identity, signIn } from '../accounts/registration.ts';
import { meView, subscriptionContextOf } from '../accounts/views.ts';
import { appleStrategy } from './apple.ts';
import { googleStrategy } from './google.ts';
import { identityOf } from './identity.ts';
import {
  AUTH_FAILED,
  cancelled,
  failureOf,
  SignInFailure,
  signInPage,
  successLocation,
  tooManyAttempts,
} from './signInOutcome.ts';
import { invalidStateMessage, randomToken, SignInStateCookies, sameState } from './signInState.ts';

/** The route Apple's form_post reaches from Apple's site (see `crossSiteProtection`). */
export const APPLE_CALLBACK_ROUTE = 'POST /auth/apple/callback';

/** The projections lag beyond the read-your-writes wait: the account exists, its view not yet. */
const accountNotReadyYet = () =>
  new HttpError(503, 'not_ready', 'Your account is being set up. Please try again in a moment.');

type Authenticator = InstanceType<typeof passport.Passport>;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A provider's own refusal (`error=` on its redirect): cancelled, or failed with its code. */
const refusalOf = (provider: string, error: string, log: Logger) =>
  error === 'access_denied' || error === 'user_cancelled_authorize'
    ? cancelled(provider)
    : failureOf({ code: error }, log);

/** Runs a passport strategy on the callback; the verified identity, or the reason it failed. */
const authenticate = (
  authenticator: Authenticator,
  strategy: string,
  req: Request,
  res: Response,
) =>
  new Promise<{ identity: Identity; state: unknown }>((resolve, reject) => {
    authenticator.authenticate(
      strategy,
      { session: false },
      (error: unknown, user: Express.User | false, info?: { code?: string; message?: string }) => {
        if (error) return reject(error);
        if (!user) {
          // Our state store names its refusals; the strategies' own (a bad nonce) are the same kind.
          return reject(
            info?.code
              ? new SignInFailure(info.code, info.message ?? AUTH_FAILED)
              : new SignInFailure('invalid_request', invalidStateMessage),
          );
        }
        resolve({
          identity: identityOf(user),
          state: (info as { state?: unknown } | undefined)?.state,
        });
      },
    )(req, res, reject);
  });

const descriptors = {
  authProviders: {
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Sign-in',
    summary: 'Which sign-in buttons to show',
    auth: 'none',
    responses: ok(authProvidersSchema),
    errors: [],
  },
  googleSignIn: {
    method: 'get',
    path: '/api/auth/google',
    tag: 'Sign-in',
    summary: "Starts Google sign-in: redirects to Google's authorization page",
    auth: 'none',
    responses: redirect,
    errors: [notFoundWhen('Google sign-in is not configured')],
  },
  googleCallback: {
    method: 'get',
    path: '/api/auth/google/callback',
    tag: 'Sign-in',
    summary: 'Google sends the browser here; redirects to `/auth/callback`',
    auth: 'none',
    responses: redirect,
    errors: [notFoundWhen('Google sign-in is not configured')],
    command: true,
  },
  appleSignIn: {
    method: 'get',
    path: '/api/auth/apple',
    tag: 'Sign-in',
    summary: "Starts Sign in with Apple: redirects to Apple's authorization page",
    auth: 'none',
    responses: redirect,
    errors: [notFoundWhen('Sign in with Apple is not configured')],
  },
  appleCallback: {
    method: 'post',
    path: '/api/auth/apple/callback',
    tag: 'Sign-in',
    summary: "Apple's form post (from Apple's site); redirects to `/auth/callback`",
    auth: 'none',
    body: { contentType: 'application/x-www-form-urlencoded', required: false },
    responses: redirect,
    errors: [notFoundWhen('Sign in with Apple is not configured')],
    command: true,
  },
  devLogin: {
    method: 'post',
    path: '/api/auth/dev-login',
    tag: 'Sign-in',
    summary: 'Development and test sign-in (404 in production)',
    auth: 'none',
    body: json(devLoginRequestSchema),
    responses: ok(meSchema, 'Signed in: the Me object, with `Set-Cookie`'),
    errors: [
      notFoundWhen('NODE_ENV=production'),
      {
        status: 503,
        code: 'not_ready',
        when: 'The new profile is not readable after READ_YOUR_WRITES_TIMEOUT_MS',
      },
    ],
    command: true,
    rateLimited: 60,
  },
  logout: {
    method: 'post',
    path: '/api/auth/logout',
    tag: 'Sign-in',
    summary: 'Ends every session of the user',
    auth: 'none',
    responses: ok(okSchema),
    errors: [],
  },
} satisfies RouteDescriptors;

/**
 * Sign-in: Google (and Apple, when configured) through passport without sessions, the
 * development sign-in, the list of providers, and sign-out.
 */
export const authRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { config, ledger, read, sessions, consistency } = deps;
  const policy = { freeCredits: config.FREE_CREDITS, adminEmails: config.ADMIN_EMAILS };
  // An authenticator of its own: strategies differ between apps in one process (tests).
  const authenticator: Authenticator = new passport.Passport();
  const secret = sessionSecretOf(config);
  const secure = config.NODE_ENV === 'production';

  const google = googleSignInEnabled(config)
    ? new SignInStateCookies(secret, {
        name: 'astra.signin.google',
        path: '/api/auth/google',
        sameSite: 'lax',
        secure,
      })
    : null;
  if (google) authenticator.use(googleStrategy(config, google));

  // Apple's answer is a cross-site POST: only a SameSite=None (hence Secure) cookie comes along.
  const apple = appleSignInEnabled(config)
    ? new SignInStateCookies(secret, {
        name: 'astra.signin.apple',
        path: '/api/auth/apple',
        sameSite: 'none',
        secure: true,
      })
    : null;
  if (apple) authenticator.use(appleStrategy(config));

  const enabled =
    (cookies: SignInStateCookies | null, provider: string): RequestHandler =>
    (_req, _res, next) =>
      next(cookies ? undefined : notFound(`${provider} sign-in is not configured`));

  /** Browsers navigate here: over the limit they land on the callback page with the reason. */
  const navigationLimit = () =>
    signInLimit(30, (_req, res) => res.redirect(302, tooManyAttempts().location));

  const redirectOnFailure = (req: Request, res: Response) => (error?: unknown) => {
    if (!res.headersSent) res.redirect(302, failureOf(error, req.log).location);
  };

  /** Registers or finds the user, starts a new session and sends the browser on. */
  const finishSignIn = async (
    req: Request,
    res: Response,
    identity: Identity,
    returnUrl: string,
  ) => {
    const { userId, position } = await signIn(ledger, identity, policy, req.context);
    await sessions.start(req, res, userId);
    await consistency.settle(req, position);
    res.redirect(302, successLocation(returnUrl));
  };

  route('authProviders', (_req, res) => {
    const providers: AuthProviders = {
      google: google !== null,
      apple: apple !== null,
      dev: devSignInEnabled(config),
    };
    res.json(providers);
  });

  route('googleSignIn', navigationLimit(), enabled(google, 'Google'), (req, res) => {
    res.set('Cache-Control', 'no-store');
    // The state store keeps the returnUrl, the state and the PKCE verifier in a signed cookie.
    authenticator.authenticate('google', {
      session: false,
      scope: ['profile', 'email'],
      prompt: 'consent',
    })(req, res, redirectOnFailure(req, res));
  });

  route(
    'googleCallback',
    navigationLimit(),
    enabled(google, 'Google'),
    signInPage(async (req, res) => {
      const error = text(req.query.error);
      if (error || !text(req.query.code)) {
        google!.discard(res);
        throw error
          ? refusalOf('Google', error, req.log)
          : new SignInFailure(
              'invalid_request',
              'Google sent an incomplete answer. Please try again.',
            );
      }
      const { identity, state } = await authenticate(authenticator, 'google', req, res);
      await finishSignIn(
        req,
        res,
        identity,
        safeReturnUrl((state as { returnUrl?: unknown } | undefined)?.returnUrl),
      );
    }),
  );

  route('appleSignIn', navigationLimit(), enabled(apple, 'Apple'), (req, res) => {
    res.set('Cache-Control', 'no-store');
    const nonce = randomToken();
    const pending = apple!.issue(res, { returnUrl: safeReturnUrl(req.query.returnUrl), nonce });
    authenticator.authenticate('apple', {
      session: false,
      state: pending.state,
      nonce,
      scope: ['name', 'email'],
    } as object)(req, res, redirectOnFailure(req, res));
  });

  route(
    'appleCallback',
    navigationLimit(),
    enabled(apple, 'Apple'),
    express.urlencoded({ extended: false, limit: '20kb' }),
    signInPage(async (req, res) => {
      const pending = apple!.take(req, res);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const error = text(body.error);
      if (error) throw refusalOf('Apple', error, req.log);
      // The signed state cookie is this cross-site POST's protection against forgery.
      if (!pending?.nonce || !sameState(pending.state, body.state) || !text(body.code)) {
        throw new SignInFailure('invalid_request', invalidStateMessage);
      }
      res.locals.appleNonce = pending.nonce;
      const { identity } = await authenticate(authenticator, 'apple', req, res);
      await finishSignIn(req, res, identity, pending.returnUrl);
    }),
  );

  route('devLogin', signInLimit(60), async (req, res) => {
    if (!devSignInEnabled(config)) throw notFound();
    const body = devLoginRequestSchema.parse(req.body);
    const { userId, position } = await signIn(
      ledger,
      { email: body.email, fullName: body.fullName ?? null, provider: 'dev' },
      policy,
      req.context,
    );
    await sessions.start(req, res, userId);
    await consistency.settle(req, position);
    const profile = await profileOf(read, userId);
    if (!profile) throw accountNotReadyYet();
    res.json(meView(profile, subscriptionContextOf(deps)));
  });

  route('logout', async (req, res) => {
    // Signing out ends every session of the user, on every device.
    if (req.session) await sessions.endAllOf(req.session.userId);
    await sessions.end(req, res);
    res.json({ ok: true });
  });
});
