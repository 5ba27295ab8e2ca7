/** User-facing sign-in messages from the spec (§5 callback rules, §8 error mapping). */
export const AUTH_FAILED = 'Authentication failed. Please try again.';
export const CODE_VERIFIER_FAILED =
  'Authentication failed due to security validation. Please try signing in again.';
export const SIGN_IN_TIMEOUT =
  'Sign in is taking longer than expected. Please try signing in again.';

/** The callback's error query (`error`, `error_description`) as a message. */
export function callbackErrorMessage(error: string, description: string | null): string {
  if (error === 'invalid_request' && /code[\s_-]*verifier/i.test(description ?? '')) {
    return CODE_VERIFIER_FAILED;
  }
  return description?.trim() || AUTH_FAILED;
}

/** Spec §8: map a raw sign-in failure to what the person sees. */
export function signInErrorMessage(raw: string | undefined): string {
  const text = raw ?? '';
  if (/security|ssl|tls|certificate/i.test(text)) {
    return 'Connection security error. Please check your network and try again.';
  }
  if (/network|offline|timeout|failed to fetch/i.test(text)) {
    return 'Network connection issue. Please check your internet and try again.';
  }
  if (/rate|too many/i.test(text)) return 'Too many attempts. Please wait a moment and try again.';
  if (text === 'Invalid login credentials' || text === 'Email not confirmed') return text;
  return AUTH_FAILED;
}
