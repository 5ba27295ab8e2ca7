/**
 * The answers a page was drawn with, carried in its HTML after `<div id="root">` as a JSON data
 * block (never run, so the CSP has nothing to allow): written by the server's drawing
 * (`entry-server.tsx`), read by the page's script (`boot.ts`) and the app (`main.tsx`). Free of
 * imports: the page's script reads it before any of the app is loaded.
 */
const ELEMENT_ID = 'drawn-state';
/** Set when the app must start as soon as the page arrives (`useStartAtOnce`). */
const START_AT_ONCE = 'data-start-at-once';
/** The time zone the page's dates were drawn in (`timeZone.tsx`). */
const TIME_ZONE = 'data-time-zone';

/** JSON inside `<script>`: no `</script>` or `<!--` can end or change the element early. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export const drawnStateElement = (state: unknown, startAtOnce: boolean, timeZone: string) =>
  `<script type="application/json" id="${ELEMENT_ID}" ${TIME_ZONE}="${encodeURIComponent(timeZone)}"${startAtOnce ? ` ${START_AT_ONCE}` : ''}>${scriptSafeJson(state)}</script>`;

/** The page's drawn state, or null for a page the app draws itself. */
export function readDrawnState(): {
  answers: () => unknown;
  startAtOnce: boolean;
  timeZone: string;
} | null {
  const element = document.getElementById(ELEMENT_ID);
  if (!element) return null;
  return {
    answers: () => JSON.parse(element.textContent ?? 'null'),
    startAtOnce: element.hasAttribute(START_AT_ONCE),
    timeZone: decodeURIComponent(element.getAttribute(TIME_ZONE) ?? 'UTC'),
  };
}
