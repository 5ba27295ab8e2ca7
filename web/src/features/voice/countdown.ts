/** Whole seconds left until `deadline` (ms on the browser's clock), never below zero. */
export const secondsUntil = (deadline: number, now: number) =>
  Math.max(0, Math.ceil((deadline - now) / 1000));

/** A countdown as people read it: '5:00', '4:57', '0:09'. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A session's length in whole minutes, as the toasts say it ('5 minutes remaining'). */
export const sessionMinutes = (sessionSeconds: number) =>
  Math.max(1, Math.round(sessionSeconds / 60));

/**
 * Where the countdown ends on this browser's clock: the server's `endsAt` when the two clocks
 * agree (within 2 s of what `secondsLeft` says on receipt), else the moment the answer was
 * received plus `secondsLeft`, so a browser whose clock is off still counts the right five
 * minutes. Either way the browser's clock then drives the ticks.
 */
export function deadlineFrom(
  session: { endsAt: string; secondsLeft: number },
  receivedAt: number,
): number {
  const byLeft = receivedAt + session.secondsLeft * 1000;
  const byClock = Date.parse(session.endsAt);
  return Number.isFinite(byClock) && Math.abs(byClock - byLeft) <= 2000 ? byClock : byLeft;
}
