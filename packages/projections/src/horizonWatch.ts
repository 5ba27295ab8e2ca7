import { describeHolder, type HorizonHold } from '@astra/event-store';
import type { ProjectorLogger } from './projectorStatus.ts';

/**
 * Tells when a transaction holds the event log's horizon past `stallMs` (every projection waits
 * behind it, and exports and reports fail after that wait): once when it first does, again every
 * minute while it goes on, and once when it has ended. Returns the function that stops watching.
 */
export function watchHorizon(
  hold: () => Promise<HorizonHold | null>,
  stallMs: number,
  logger: ProjectorLogger,
): () => void {
  let reported: { pid: number; at: number } | null = null;
  const check = async () => {
    const held = await hold().catch(() => null);
    const stalled = held && held.heldForMs >= stallMs ? held : null;
    if (!stalled) {
      if (reported) logger.info({ pid: reported.pid }, 'The event log’s horizon moves again.');
      reported = null;
      return;
    }
    const now = Date.now();
    if (reported?.pid === stalled.holder.pid && now - reported.at < 60_000) return;
    reported = { pid: stalled.holder.pid, at: now };
    logger.error(
      { horizon: { heldForMs: stalled.heldForMs, ...stalled.holder } },
      `The event log’s horizon has not moved for ${Math.round(stalled.heldForMs / 1000)} s: ${describeHolder(stalled.holder)} is still open. No projection sees events committed after it began. See docs/operations.md (the log's horizon).`,
    );
  };
  const timer = setInterval(check, Math.min(stallMs, 10_000));
  timer.unref?.();
  return () => clearInterval(timer);
}
