import { safeReturnUrl } from '@astra/contracts';
import type { RequestHandler } from 'express';
import type { Logger } from '../../observability/logger.ts';

/** The web app's page that finishes a sign-in (or shows why it failed). */
const CALLBACK_PAGE = '/auth/callback';

export const AUTH_FAILED = 'Authentication failed. Please try again.';

/**
 * A sign-in that cannot finish. Pages the browser navigates to never answer with JSON or a
 * stack trace: they send the browser to the web app's callback page with `error` (a machine
 * code) and `error_description` (text for people).
 */
export class SignInFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  get location() {
    const query = new URLSearchParams({ error: this.code, error_description: this.message });
    return `${CALLBACK_PAGE}?${query}`;
  }
}

export const successLocation = (returnUrl: unknown) =>
  `${CALLBACK_PAGE}?${new URLSearchParams({ returnUrl: safeReturnUrl(returnUrl) })}`;

export const cancelled = (provider: string) =>
  new SignInFailure(
    'access_denied',
    `Sign-in with ${provider} was cancelled. Please try again when you are ready.`,
  );

export const tooManyAttempts = () =>
  new SignInFailure('rate_limited', 'Too many attempts. Please wait a moment and try again.');

const providerCode = /^[a-z_]{1,64}$/;

/** An error the provider or the network gave: its code if it is a sane one; no internals. */
export const failureOf = (error: unknown, log: Logger): SignInFailure => {
  if (error instanceof SignInFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && providerCode.test(code)) {
    log.warn({ code }, 'Sign-in refused by the provider');
    return new SignInFailure(code, AUTH_FAILED);
  }
  log.error({ err: error }, 'Sign-in failed');
  return new SignInFailure('server_error', AUTH_FAILED);
};

/** A route the browser navigates to: every failure becomes a redirect to the callback page. */
export const signInPage =
  (handler: RequestHandler): RequestHandler =>
  async (req, res, next) => {
    // These answers set cookies and carry one-time codes: never cached.
    res.set('Cache-Control', 'no-store');
    try {
      await handler(req, res, next);
    } catch (error) {
      if (!res.headersSent) res.redirect(302, failureOf(error, req.log).location);
      else req.log.error({ err: error }, 'Sign-in failed after answering');
    }
  };
