import { type Me, safeReturnUrl } from '@astra/contracts';
import { hasOnboardingBirthData } from '../profile/birthData';

/** Where a fresh sign-in lands: onboarding until the birth profile exists, else the returnUrl. */
export function signInDestination(me: Me, returnUrl: string | null | undefined): string {
  return hasOnboardingBirthData(me) ? safeReturnUrl(returnUrl ?? undefined) : '/onboarding';
}
