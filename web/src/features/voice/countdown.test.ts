import { describe, expect, it } from 'vitest';
import {
  CONNECT_TIMEOUT_MS,
  connectDeadline,
  deadlineFrom,
  formatCountdown,
  secondsUntil,
  sessionMinutes,
} from './countdown';

describe('countdown', () => {
  it('shows minutes and two-digit seconds', () => {
    expect(formatCountdown(300)).toBe('5:00');
    expect(formatCountdown(297)).toBe('4:57');
    expect(formatCountdown(9)).toBe('0:09');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('rounds a part second up and stops at zero', () => {
    expect(secondsUntil(10_500, 10_000)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 99_000)).toBe(0);
  });

  it('names a session in whole minutes', () => {
    expect(sessionMinutes(300)).toBe(5);
    expect(sessionMinutes(30)).toBe(1);
  });

  it("uses the server's end when the clocks agree, else the seconds left from receipt", () => {
    const receivedAt = Date.parse('2026-01-01T12:00:00.000Z');
    const agree = { endsAt: '2026-01-01T12:04:59.600Z', secondsLeft: 300 };
    expect(deadlineFrom(agree, receivedAt)).toBe(Date.parse(agree.endsAt));
    const skewed = { endsAt: '2026-01-01T12:14:59.600Z', secondsLeft: 300 };
    expect(deadlineFrom(skewed, receivedAt)).toBe(receivedAt + 300_000);
  });

  it("gives the connection until 20 s after the server's start, on the countdown's clock", () => {
    const receivedAt = Date.parse('2026-01-01T12:00:03.000Z');
    const session = {
      startedAt: '2026-01-01T12:00:00.000Z',
      endsAt: '2026-01-01T12:05:00.000Z',
      secondsLeft: 297,
    };
    const deadline = deadlineFrom(session, receivedAt);
    expect(connectDeadline(session, deadline, receivedAt)).toBe(
      Date.parse(session.startedAt) + CONNECT_TIMEOUT_MS,
    );
    // A browser clock 10 minutes behind: the start is placed 3 s before receipt all the same.
    const behind = receivedAt - 600_000;
    expect(connectDeadline(session, deadlineFrom(session, behind), behind)).toBe(
      behind - 3000 + CONNECT_TIMEOUT_MS,
    );
    // Dates that do not parse: counted from receipt.
    const odd = { startedAt: 'x', endsAt: 'y', secondsLeft: 300 };
    expect(connectDeadline(odd, deadlineFrom(odd, receivedAt), receivedAt)).toBe(
      receivedAt + CONNECT_TIMEOUT_MS,
    );
  });
});
