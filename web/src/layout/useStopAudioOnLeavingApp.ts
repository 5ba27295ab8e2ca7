import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Spec: leaving the dashboard (/app) stops any audio still playing (e.g. a voice guide). */
export function useStopAudioOnLeavingApp() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === '/app' && pathname !== '/app') {
      for (const audio of document.querySelectorAll('audio')) audio.pause();
    }
    previous.current = pathname;
  }, [pathname]);
}
