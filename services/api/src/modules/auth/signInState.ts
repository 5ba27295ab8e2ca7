import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { safeReturnUrl } from '@astra/contracts';
import type { Request, Response } from 'express';
import { cookieFrom } from '../../http/cookies.ts';

/** A provider must send the browser back within this long. */
const LIFETIME_MS = 10 * 60_000;

/** What a sign-in remembers between leaving for the provider and coming back. */
export interface PendingSignIn {
  /** The OAuth `state`: the callback must bring back exactly this. */
  state: string;
  returnUrl: string;
  /** PKCE code verifier (Google). */
  verifier?: string;
  /** OpenID Connect nonce (Apple). */
  nonce?: string;
  expiresAt: number;
}

export interface SignInStateOptions {
  name: string;
  /** Only the provider's routes receive the cookie. */
  path: string;
  /**
   * `lax` when the provider returns with a top-level GET; `none` when it POSTs the answer from
   * its own site (Apple's form_post), which Lax cookies never accompany. `none` is always Secure.
   */
  sameSite: 'lax' | 'none';
  secure: boolean;
}

/** 256 random bits, URL-safe: states and nonces. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Equal strings, compared in constant time. */
export const sameState = (a: string, b: unknown) => {
  if (typeof b !== 'string') return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * The pending sign-in lives in a short-lived HttpOnly cookie signed with HMAC-SHA256, so no
 * server-side session has to exist before sign-in. The random `state` in it, which the provider
 * must echo, ties the callback to the browser that started the sign-in (login CSRF). A cookie is
 * good for one callback: reading it clears it.
 */
export class SignInStateCookies {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly options: SignInStateOptions,
  ) {
    // A key of its own, so that this MAC can never be confused with another use of the secret.
    this.key = createHmac('sha256', secret).update('astra sign-in state').digest();
  }

  issue(res: Response, remember: Pick<PendingSignIn, 'returnUrl' | 'verifier' | 'nonce'>) {
    const pending: PendingSignIn = {
      ...remember,
      state: randomToken(),
      expiresAt: Date.now() + LIFETIME_MS,
    };
    const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
    res.cookie(this.options.name, `${payload}.${this.mac(payload)}`, {
      ...this.cookieOptions(),
      maxAge: LIFETIME_MS,
    });
    return pending;
  }

  /** The pending sign-in this browser started, if its cookie is genuine and fresh; clears it. */
  take(req: Request, res: Response): PendingSignIn | null {
    const value = cookieFrom(req, this.options.name);
    if (value === undefined) return null;
    this.discard(res);
    const [payload, mac, ...rest] = value.split('.');
    if (!payload || !mac || rest.length > 0 || !sameState(this.mac(payload), mac)) return null;
    try {
      const pending = JSON.parse(Buffer.from(payload, 'base64url').toString()) as PendingSignIn;
      if (typeof pending.state !== 'string' || !(pending.expiresAt > Date.now())) return null;
      return { ...pending, returnUrl: safeReturnUrl(pending.returnUrl) };
    } catch {
      return null;
    }
  }

  discard(res: Response) {
    res.clearCookie(this.options.name, this.cookieOptions());
  }

  private mac(payload: string) {
    return createHmac('sha256', this.key)
      .update(`${this.options.name}\n${payload}`)
      .digest('base64url');
  }

  private cookieOptions() {
    const none = this.options.sameSite === 'none';
    return {
      httpOnly: true,
      sameSite: this.options.sameSite,
      secure: none || this.options.secure,
      path: this.options.path,
    } as const;
  }
}

type StoreCallback = (error: Error | null, state?: string) => void;
type VerifyCallback = (
  error: Error | null,
  ok: string | false,
  state?: { returnUrl: string } | { code: string; message: string },
) => void;

export const invalidStateMessage =
  'Authentication failed due to security validation (the sign-in state or code verifier did not match). Please try signing in again.';

/**
 * passport-oauth2's state store (`store` option) over the signed cookie, with PKCE: `store`
 * remembers the code verifier and the `returnUrl` of the request; `verify` hands the verifier
 * back for the token request, and the `returnUrl` on to the route as the success info's `state`.
 * Their argument counts are how passport-oauth2 recognises the PKCE form.
 */
export const oauthStateStore = (cookies: SignInStateCookies) => ({
  store(req: Request, verifier: string, _state: unknown, _meta: unknown, done: StoreCallback) {
    const pending = cookies.issue(req.res!, {
      verifier,
      returnUrl: safeReturnUrl(req.query.returnUrl),
    });
    done(null, pending.state);
  },
  verify(req: Request, state: unknown, _meta: unknown, done: VerifyCallback) {
    const pending = cookies.take(req, req.res!);
    if (!pending?.verifier || !sameState(pending.state, state)) {
      return done(null, false, { code: 'invalid_request', message: invalidStateMessage });
    }
    done(null, pending.verifier, { returnUrl: pending.returnUrl });
  },
});
