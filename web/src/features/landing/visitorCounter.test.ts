import { describe, expect, it } from 'vitest';
import { COUNTER_CAP, counterText, nextCount } from './visitorCounter.ts';

describe('the visitor counter', () => {
  it('groups thousands as en-US does', () => {
    for (const count of [7, 999, 4847, 5000, 12_345, 1_234_567])
      expect(counterText(count)).toBe(`${count.toLocaleString('en-US')}+ readings completed`);
    expect(counterText(4847)).toBe('4,847+ readings completed');
  });

  it('rises by 1 to 3 and stops at the cap', () => {
    expect(nextCount(4847, () => 0)).toBe(4848);
    expect(nextCount(4847, () => 0.99)).toBe(4850);
    expect(nextCount(COUNTER_CAP - 1, () => 0.99)).toBe(COUNTER_CAP);
  });
});
