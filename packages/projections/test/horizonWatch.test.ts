import type { HorizonHold } from '@astra/event-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchHorizon } from '../src/horizonWatch.ts';

const holder = (pid: number, heldForMs: number): HorizonHold => ({
  heldForMs,
  holder: {
    pid,
    state: 'idle in transaction',
    database: 'astra',
    user: 'postgres',
    application: 'psql',
    transactionStart: '2026-11-27 06:00:00+00',
    stateChange: null,
    query: 'UPDATE things SET x = 1',
  },
});

describe('watchHorizon', () => {
  afterEach(() => vi.useRealTimers());

  it('tells once a transaction holds the horizon past the threshold, each minute after, and when it ends', async () => {
    vi.useFakeTimers();
    let held: HorizonHold | null = holder(42, 500);
    const lines: { level: string; message: string }[] = [];
    const stop = watchHorizon(async () => held, 1_000, {
      info: (_fields, message) => lines.push({ level: 'info', message }),
      error: (_fields, message) => lines.push({ level: 'error', message }),
    });
    const tick = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
    };
    await tick(1_000); // held 0.5 s: below the threshold
    expect(lines).toEqual([]);
    held = holder(42, 5_000);
    await tick(1_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('error');
    expect(lines[0]!.message).toMatch(/has not moved for 5 s: backend 42 \(idle in transaction/);
    await tick(30_000); // the same holder: not told again within the minute
    expect(lines).toHaveLength(1);
    await tick(31_000);
    expect(lines).toHaveLength(2);
    held = null;
    await tick(1_000);
    expect(lines.at(-1)).toEqual({
      level: 'info',
      message: 'The event log’s horizon moves again.',
    });
    await tick(5_000);
    expect(lines).toHaveLength(3);
    stop();
  });
});
