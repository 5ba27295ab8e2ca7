import { safeReturnUrl } from '@astra/contracts';

/** The returnUrl of the address, if it is a path of this site; else /app. */
export function returnUrlFrom(search: string): string {
  return safeReturnUrl(new URLSearchParams(search).get('returnUrl') ?? undefined);
}

/** Full-page navigation target that starts an identity provider's sign-in. */
export function providerSignInUrl(provider: 'google' | 'apple', returnUrl: string): string {
  return `/api/auth/${provider}?returnUrl=${encodeURIComponent(safeReturnUrl(returnUrl))}`;
}
