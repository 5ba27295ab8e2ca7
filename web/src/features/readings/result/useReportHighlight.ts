import {
  createContext,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/** Spec §9: the report stays highlighted for 2 seconds after 'Go to Reading'. */
export const REPORT_HIGHLIGHT_MS = 2000;

export interface ReportHighlight {
  /** The report's element: the target of 'Go to Reading'. */
  ref: RefObject<HTMLElement | null>;
  highlighted: boolean;
  /** Scrolls the report into view, moves focus to it and highlights it briefly. */
  goToReading: () => void;
}

/** 'Go to Reading': scroll the report into view, move focus to it and highlight it briefly. */
export function useReportHighlight(): ReportHighlight {
  const ref = useRef<HTMLElement>(null);
  const [flashes, setFlashes] = useState(0);
  const [highlighted, setHighlighted] = useState(false);

  useEffect(() => {
    if (flashes === 0) return;
    setHighlighted(true);
    const timer = window.setTimeout(() => setHighlighted(false), REPORT_HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [flashes]);

  const goToReading = useCallback(() => {
    const report = ref.current;
    if (!report) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    report.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
    report.focus({ preventScroll: true });
    setFlashes((count) => count + 1);
  }, []);

  // One value while nothing changes: the page renders again at every piece of a text being written.
  return useMemo(() => ({ ref, highlighted, goToReading }), [highlighted, goToReading]);
}

/** The result page's report highlight, shared by its 'How to use' card and its report. */
export const ReportHighlightContext = createContext<ReportHighlight | null>(null);

export function useReportHighlightContext() {
  const highlight = useContext(ReportHighlightContext);
  if (!highlight) throw new Error('A reading report part is used outside ReadingResultPage');
  return highlight;
}
