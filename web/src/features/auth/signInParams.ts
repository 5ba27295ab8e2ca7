/**
 * Reading sign-in state from the address. Kept free of `@astra/contracts` (and so of zod): the
 * shell and the landing page use it on every first load.
 */

/** Query keys an identity provider may leave on the address after a sign-in redirect. */
export const SIGN_IN_PARAM_KEYS = ['code', 'access_token', 'refresh_token', 'provider_token'];

/** Keys that make the header say 'Processing sign in...'. */
const PROCESSING_KEYS = ['code', 'access_token', 'provider_token'];

export function isProcessingSignIn(search: string, hash: string): boolean {
  const params = new URLSearchParams(search);
  // Some providers return tokens in the fragment instead of the query.
  const fragment = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return PROCESSING_KEYS.some((key) => params.has(key) || fragment.has(key));
}

export function carriesSignInParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return SIGN_IN_PARAM_KEYS.some((key) => params.has(key));
}

/** `/auth/callback` with the same query plus a returnUrl (default /app); the callback checks it. */
export function callbackUrlFor(search: string): string {
  const params = new URLSearchParams(search);
  if (!params.get('returnUrl')) params.set('returnUrl', '/app');
  return `/auth/callback?${params.toString()}`;
}

/** The /auth address that brings a visitor back to `path` (a path of this site) after sign-in. */
export function signInUrlFor(path: string): string {
  return path === '/app' ? '/auth' : `/auth?returnUrl=${encodeURIComponent(path)}`;
}
