/**
 * Where draws get their randomness. Production uses node:crypto's randomInt (uniform, from the
 * operating system's CSPRNG); tests and benchmarks inject a seeded source.
 */
import { randomInt } from 'node:crypto';

export interface RandomSource {
  /** A uniformly distributed integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
}

export const cryptoRandom: RandomSource = {
  int: (maxExclusive) => randomInt(maxExclusive),
};

/**
 * Deterministic source for tests (SplitMix32-style mixing of a 32-bit counter, rejection
 * sampling so every value in range is equally likely). Not for production draws.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    int(maxExclusive) {
      if (!Number.isInteger(maxExclusive) || maxExclusive <= 0 || maxExclusive > 2 ** 32) {
        throw new RangeError(`maxExclusive must be an integer in 1..2^32, got ${maxExclusive}`);
      }
      const limit = 2 ** 32 - (2 ** 32 % maxExclusive);
      for (;;) {
        const v = next();
        if (v < limit) return v % maxExclusive;
      }
    },
  };
}
