import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos.ts';

/**
 * Chaos under load (see `chaos.ts`), short: two API processes, two projectors, a primary and a
 * standby, people buying, reading and talking while an API process and the leading projector
 * are killed and started again. `npm run bench -- chaos` runs it for 60 s.
 */
describe('chaos under load', () => {
  it('applies every acknowledged command exactly once through the kills, reads its own writes, and verifies clean', async () => {
    const result = await runChaos({ seconds: 15, people: 4 });
    if (!result) return; // no server binaries: skipped with one line
    // The kills cut requests off: clients sent them again (else exactly once proves little).
    expect(result.resent).toBeGreaterThan(0);
    expect(result.notExactlyOnce).toEqual([]);
    expect(result.streamGaps).toEqual([]);
    expect(result.readYourWritesViolations).toEqual([]);
    expect(result.verify.code, result.verify.output).toBe(0);
    for (const kind of ['sign-up', 'purchase', 'reading', 'voice session', 'adjustment'])
      expect(result.acknowledged[kind], kind).toBeGreaterThan(0);
    expect(result.takeoverSeconds).toBeLessThanOrEqual(5);
    // Reads routed to the standby (read-replicas.test.ts shows such reads run there).
    expect(result.replicaReads.replica).toBeGreaterThan(0);
  }, 240_000);
});
