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

/**
 * How long after a session's start (the server's `startedAt`) its conversation may take to come
 * up before the browser gives it up as never connected. Kept well below the server's grace for
 * such an end (`VOICE_CONNECT_GRACE_SECONDS`, 30 s, in @astra/ledger), so a session that never
 * connected is told as such while the server still refunds it.
 */
export const CONNECT_TIMEOUT_MS = 20_000;

/**
 * When, on the browser's clock, a session's conversation must be connected: the server's
 * `startedAt`, placed on the browser's clock through the countdown's `deadline` (so the same
 * clock skew applies), plus `CONNECT_TIMEOUT_MS`. Never later than that long after receipt.
 */
export function connectDeadline(
  session: { startedAt: string; endsAt: string },
  deadline: number,
  receivedAt: number,
): number {
  const length = Date.parse(session.endsAt) - Date.parse(session.startedAt);
  const startedAt = Number.isFinite(length) && length > 0 ? deadline - length : receivedAt;
  return Math.min(startedAt, receivedAt) + CONNECT_TIMEOUT_MS;
}
