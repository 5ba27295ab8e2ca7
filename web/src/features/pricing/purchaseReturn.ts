import { READINGS } from '../readings/readingCatalog';

/**
 * Where to go back after buying credits: the reading form that ran out of them. Kept in session
 * storage from /pricing?returnTo=… across the checkout (the checkout tab opened from this one
 * starts with a copy of its session storage), and offered by the success page once paid.
 */
const RETURN_KEY = 'purchaseReturnTo';

/** The query parameter reading forms send buyers to /pricing with. */
export const RETURN_PARAM = 'returnTo';

/** Only the reading forms: a return path must never lead off the site or anywhere unexpected. */
const FORM_PATHS = new Map<string, string>([
  ...Object.values(READINGS).map((app): [string, string] => [app.formPath, app.name]),
  // Spec §2: the tarot form has a second address.
  ['/app/tarot-traditional', READINGS['tarot-traditional'].name],
]);

export const isReturnPath = (path: string | null): path is string =>
  path !== null && FORM_PATHS.has(path);

/** '/pricing?returnTo=%2Fnatalbirthchart': buy credits, then come back here. */
export const pricingPathReturningTo = (formPath: string) =>
  isReturnPath(formPath)
    ? `/pricing?${new URLSearchParams({ [RETURN_PARAM]: formPath })}`
    : '/pricing';

/** The reading's name for a return path, e.g. 'Natal Birth Chart'. */
export const returnPathName = (path: string) => FORM_PATHS.get(path) ?? 'reading';

export function savePurchaseReturn(path: string) {
  if (!isReturnPath(path)) return;
  try {
    window.sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // not kept: the success page then offers the dashboard only
  }
}

export function readPurchaseReturn(): string | null {
  try {
    const path = window.sessionStorage.getItem(RETURN_KEY);
    return isReturnPath(path) ? path : null;
  } catch {
    return null;
  }
}

export function clearPurchaseReturn() {
  try {
    window.sessionStorage.removeItem(RETURN_KEY);
  } catch {
    // nothing kept, nothing to clear
  }
}
