/**
 * Spec §3/§4: a signed-out visitor's choice of plan waits in session storage while they sign
 * in, and resumes on /pricing afterwards. Free of `@astra/contracts`: onboarding reads it too.
 */
export interface PendingPurchase {
  tierId: number;
  isSubscription: boolean;
}

const PENDING_PURCHASE_KEY = 'pendingPurchase';
/** Set when the sign-in's redirect target is the pricing page. */
const RETURN_TO_PRICING_KEY = 'returnToPricing';

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage can be blocked (private modes, strict settings)
  }
}

export function savePendingPurchase(purchase: PendingPurchase) {
  try {
    session()?.setItem(PENDING_PURCHASE_KEY, JSON.stringify(purchase));
  } catch {
    // not kept; the visitor chooses again after signing in
  }
}

export function readPendingPurchase(): PendingPurchase | null {
  try {
    const parsed: unknown = JSON.parse(session()?.getItem(PENDING_PURCHASE_KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { tierId, isSubscription } = parsed as Record<string, unknown>;
    if (!Number.isInteger(tierId) || typeof isSubscription !== 'boolean') return null;
    return { tierId: tierId as number, isSubscription };
  } catch {
    return null;
  }
}

export function clearPendingPurchase() {
  session()?.removeItem(PENDING_PURCHASE_KEY);
  session()?.removeItem(RETURN_TO_PRICING_KEY);
}

/** Remembers that the sign-in should come back to pricing, when its target is /pricing. */
export function rememberSignInTarget(target: string) {
  try {
    if (target.includes('/pricing')) session()?.setItem(RETURN_TO_PRICING_KEY, 'true');
  } catch {
    // the sign-in's own returnUrl still brings the visitor back
  }
}

/** After onboarding: back to pricing when a purchase waits there. */
export function shouldReturnToPricing(): boolean {
  return session()?.getItem(RETURN_TO_PRICING_KEY) === 'true' && readPendingPurchase() !== null;
}
