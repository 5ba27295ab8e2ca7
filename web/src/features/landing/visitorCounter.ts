import { useEffect, useState } from 'react';

/** Spec §9: starts at 4847, rises by 1 to 3 every 2 seconds, stops at 5000. */
export const COUNTER_START = 4847;
export const COUNTER_CAP = 5000;
export const COUNTER_TICK_MS = 2000;

export function nextCount(current: number, random: () => number = Math.random): number {
  const step = 1 + Math.floor(random() * 3);
  return Math.min(COUNTER_CAP, current + step);
}

export function useVisitorCounter(): number {
  const [count, setCount] = useState(COUNTER_START);
  useEffect(() => {
    if (count >= COUNTER_CAP) return;
    const timer = window.setTimeout(() => setCount(nextCount), COUNTER_TICK_MS);
    return () => window.clearTimeout(timer);
  }, [count]);
  return count;
}
