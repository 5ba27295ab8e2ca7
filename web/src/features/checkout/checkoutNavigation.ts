/** A path of this site ('/checkout/local/…', '/success?…'), not another site's address. */
export const isSitePath = (url: string) => url.startsWith('/') && !url.startsWith('//');

/**
 * Opens an empty tab synchronously, inside the click that asked for it, so popup blockers let
 * it through; its address is set once the checkout answers. Null when the browser refuses.
 */
export function openCheckoutTab(): Window | null {
  let tab: Window | null = null;
  try {
    tab = window.open('', '_blank');
  } catch {
    return null;
  }
  if (!tab) return null;
  try {
    // The payment page must not be able to reach back into this tab.
    tab.opener = null;
    tab.document.title = 'Opening checkout…';
    tab.document.body.textContent = 'Opening secure checkout…';
  } catch {
    // a tab we cannot write into still works for navigation
  }
  return tab;
}

/** Sends the opened tab to the checkout; false when it was closed in the meantime. */
export function showCheckoutInTab(tab: Window, url: string): boolean {
  if (tab.closed) return false;
  tab.location.href = new URL(url, window.location.origin).href;
  return true;
}
