import { useEffect, useState } from 'react';

/** Milliseconds that passed while the tab was visible, counted in `stepMs` ticks while active. */
export function useVisibleElapsed(active: boolean, stepMs = 1000): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') setElapsed((ms) => ms + stepMs);
    }, stepMs);
    return () => window.clearInterval(timer);
  }, [active, stepMs]);
  return elapsed;
}
