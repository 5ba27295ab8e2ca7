import { isTimeZone } from '@astra/contracts';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

/**
 * The time zone dates and times are shown in. A page drawn on the server is drawn in the
 * visitor's zone, which the app keeps in a cookie for the server to read; the browser then takes
 * the page over in the zone it was drawn in (the same text, so React keeps the markup) and goes
 * on in its own.
 */
const TIME_ZONE_COOKIE = 'tz';

/** Undefined: the runtime's own zone (in the browser, the visitor's). */
const TimeZoneContext = createContext<string | undefined>(undefined);

/** The zone to pass to `toLocaleString` and friends as their `timeZone`. */
export const useTimeZone = () => useContext(TimeZoneContext);

/** The server's choice: the zone the visitor's app wrote in its cookie, else UTC. */
export function visitorTimeZone(cookieHeader: string | undefined): string {
  const written = new RegExp(`(?:^|;\\s*)${TIME_ZONE_COOKIE}=([^;]*)`).exec(cookieHeader ?? '');
  const zone = written ? decodeURIComponent(written[1]!) : '';
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

const ownTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * `drawnIn`: the zone the page was drawn in (none for a page the app draws itself). In the
 * browser, once the page is taken over, the visitor's own zone, remembered for the next drawing.
 */
export function TimeZoneProvider({ drawnIn, children }: { drawnIn?: string; children: ReactNode }) {
  const [zone, setZone] = useState(drawnIn);
  useEffect(() => {
    const own = ownTimeZone();
    // A year; Lax, like the session's: sent with the visitor's own navigations to the site.
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox.
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(own)}; path=/; max-age=31536000; samesite=lax`;
    setZone((drawn) => (drawn === own ? drawn : undefined));
  }, []);
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}
