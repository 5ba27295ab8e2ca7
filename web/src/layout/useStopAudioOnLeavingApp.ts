import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { stopSpeaking } from '../features/voice/speech';

/**
 * Spec: leaving the dashboard (/app) stops any audio still playing: media elements, and the
 * browser's speech (the offline voice guide's voice).
 */
export function useStopAudioOnLeavingApp() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === '/app' && pathname !== '/app') {
      for (const audio of document.querySelectorAll('audio')) audio.pause();
      stopSpeaking();
    }
    previous.current = pathname;
  }, [pathname]);
}
