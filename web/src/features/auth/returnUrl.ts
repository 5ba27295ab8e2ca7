import { safeReturnUrl } from '@astra/contracts';

/** The returnUrl of the address, if it is a path of this site; else /app. */
export function returnUrlFrom(search: string): string {
  return safeReturnUrl(new URLSearchParams(search).get('returnUrl') ?? undefined);
}

/** The identity providers that sign in by leaving the site. */
export type SignInProvider = 'google' | 'apple';

/** Full-page navigation target that starts an identity provider's sign-in. */
export function providerSignInUrl(provider: SignInProvider, returnUrl: string): string {
  return `/api/auth/${provider}?returnUrl=${encodeURIComponent(safeReturnUrl(returnUrl))}`;
}
