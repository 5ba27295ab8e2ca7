/**
 * The browser's own voice: speech synthesis (reading aloud) and, where the browser has it,
 * speech recognition (questions asked aloud). Both are optional; every caller copes without.
 */

export const speechSynthesisOf = (): SpeechSynthesis | null =>
  typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;

/** Stops anything the page is saying (leaving a page, ending a session). */
export function stopSpeaking() {
  try {
    speechSynthesisOf()?.cancel();
  } catch {
    // nothing to stop
  }
}

/** Long texts are said in pieces: some browsers stop a single long utterance part way. */
export function speakingPieces(text: string, max = 220): string[] {
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+["'”’)]*|$)/g) ?? [text];
  const pieces: string[] = [];
  let current = '';
  for (const raw of sentences) {
    const sentence = raw.trim();
    if (!sentence) continue;
    if (current && current.length + sentence.length + 1 > max) {
      pieces.push(current);
      current = sentence;
    } else {
      current = current ? `${current} ${sentence}` : sentence;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** The parts of the Web Speech API's recognition the offline guide uses. */
export interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  maxAlternatives: number;
  continuous: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionConstructor = new () => SpeechRecognitionLike;

/** `SpeechRecognition` (or Chromium's `webkitSpeechRecognition`), where the browser has one. */
export function speechRecognitionConstructor(): RecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}
