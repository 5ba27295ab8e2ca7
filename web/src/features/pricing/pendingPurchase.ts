/**
 * Spec §3/§4: a signed-out visitor's choice of plan waits in session storage while they sign
 * in, however they do, and resumes once signed in (`PendingPurchaseResume`). A choice left
 * waiting longer than `PENDING_PURCHASE_TTL_MS` is abandoned. Free of `@astra/contracts`: the
 * shell reads it on every page.
 */
export interface PendingPurchase {
  tierId: number;
  isSubscription: boolean;
}

const PENDING_PURCHASE_KEY = 'pendingPurchase';

/** Long enough for a sign-in and onboarding; a choice older than this was given up. */
export const PENDING_PURCHASE_TTL_MS = 30 * 60 * 1000;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage can be blocked (private modes, strict settings)
  }
}

export function savePendingPurchase(purchase: PendingPurchase) {
  try {
    const { tierId, isSubscription } = purchase;
    session()?.setItem(
      PENDING_PURCHASE_KEY,
      JSON.stringify({ tierId, isSubscription, savedAt: Date.now() }),
    );
  } catch {
    // not kept; the visitor chooses again after signing in
  }
}

export function clearPendingPurchase() {
  try {
    session()?.removeItem(PENDING_PURCHASE_KEY);
  } catch {
    // nothing was kept
  }
}

/** The choice waiting, if one is and it is recent (an old one is removed). */
export function readPendingPurchase(): PendingPurchase | null {
  try {
    const parsed: unknown = JSON.parse(session()?.getItem(PENDING_PURCHASE_KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { tierId, isSubscription, savedAt } = parsed as Record<string, unknown>;
    const age = typeof savedAt === 'number' ? Date.now() - savedAt : Number.NaN;
    const recent = age >= 0 && age <= PENDING_PURCHASE_TTL_MS;
    if (!Number.isInteger(tierId) || typeof isSubscription !== 'boolean' || !recent) {
      clearPendingPurchase();
      return null;
    }
    return { tierId: tierId as number, isSubscription };
  } catch {
    return null;
  }
}

/** Takes the waiting choice out of storage: whoever takes it is the only one to resume it. */
export function takePendingPurchase(): PendingPurchase | null {
  const pending = readPendingPurchase();
  clearPendingPurchase();
  return pending;
}
