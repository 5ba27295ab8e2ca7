/**
 * The landing page's visitor counter, free of React: the page's script runs it before the app
 * starts (`boot.ts`). Spec §9: starts at 4847, rises by 1 to 3 every 2 seconds, stops at 5000.
 */
export const COUNTER_START = 4847;
export const COUNTER_CAP = 5000;
export const COUNTER_TICK_MS = 2000;

/** The counter's element carries its number here, for whoever counts on from it. */
export const COUNTER_ATTRIBUTE = 'data-visitor-counter';

export function nextCount(current: number, random: () => number = Math.random): number {
  const step = 1 + Math.floor(random() * 3);
  return Math.min(COUNTER_CAP, current + step);
}

/**
 * "4,847+ readings completed". Grouped by hand: the first `toLocaleString` of a page loads the
 * browser's locale data, a task of some 50 ms on a phone, for one comma.
 */
export const counterText = (count: number) =>
  `${String(count).replace(/\B(?=(\d{3})+$)/g, ',')}+ readings completed`;

/** The number of the counter on the page, as drawn and climbed before the app started. */
export function countOnPage(): number | null {
  if (typeof document === 'undefined') return null;
  const value = Number(
    document.querySelector(`[${COUNTER_ATTRIBUTE}]`)?.getAttribute(COUNTER_ATTRIBUTE),
  );
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * The counter on a page drawn by the server, climbing before the app starts (`boot.ts`); the
 * returned function stops it, leaving the number on the page for the app to go on from.
 */
export function climbVisitorCounter(root: HTMLElement): () => void {
  const element = root.querySelector(`[${COUNTER_ATTRIBUTE}]`);
  if (!element) return () => {};
  const timer = window.setInterval(() => {
    const count = nextCount(countOnPage() ?? COUNTER_START);
    element.setAttribute(COUNTER_ATTRIBUTE, String(count));
    element.textContent = counterText(count);
    if (count >= COUNTER_CAP) window.clearInterval(timer);
  }, COUNTER_TICK_MS);
  return () => window.clearInterval(timer);
}
