/** What asking for the microphone gave: allowed, refused, or no microphone to give. */
export type MicrophoneAnswer = 'granted' | 'denied' | 'missing';
/** A microphone the voice guide cannot use, as told to the person (voiceMessages.microphone / noMicrophone). */
export type MicrophoneProblem = Exclude<MicrophoneAnswer, 'granted'>;

/** A failure of `getUserMedia` (or of a conversation that asked for it) as a microphone problem, if it is one. */
export function microphoneProblemOf(error: unknown): MicrophoneProblem | null {
  const name =
    error instanceof DOMException || error instanceof Error
      ? error.name
      : typeof error === 'object' && error !== null && 'name' in error
        ? String((error as { name: unknown }).name)
        : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError')
    return 'missing';
  return null;
}

/**
 * Asks for the microphone and lets it go at once (its tracks stopped): whether a conversation
 * could hear the person. Asked before a session is started (and charged), so a refusal costs
 * nothing, and again by the conversation itself.
 */
export async function askForMicrophone(): Promise<MicrophoneAnswer> {
  if (!navigator.mediaDevices?.getUserMedia) return 'missing';
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return 'granted';
  } catch (error) {
    return microphoneProblemOf(error) ?? 'denied';
  }
}
