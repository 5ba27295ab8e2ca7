import type { ReadingKind, VoiceProvider } from '@astra/contracts';
import type { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';

/** How the browser reaches the conversation of one session (null: the offline guide needs nothing). */
export interface VoiceAgentConnection {
  signedUrl: string;
  agentId: string;
}

/** The voice service at the edge: ElevenLabs Agents with a key, else the offline guide. */
export interface VoiceService {
  provider: VoiceProvider;
  /** Asks for a short-lived way in for one session of a reading of this kind. */
  connect(kind: ReadingKind): Promise<VoiceAgentConnection | null>;
}

/** The guide in the browser (speech synthesis and the reading's own passages): no service at all. */
export const offlineVoice: VoiceService = { provider: 'offline', connect: async () => null };

export interface ElevenLabsSettings {
  apiKey: string;
  /** One agent per reading type. */
  agentIds: ReadonlyMap<ReadingKind, string>;
  /** A regional API or a loopback stand-in; ElevenLabs' production API when unset. */
  baseUrl?: string;
  timeoutMs: number;
}

/**
 * ElevenLabs Agents: a signed URL per session, asked with the server's key (which never reaches
 * the browser), for the agent of the reading's type. One retry; then the caller fails the session.
 */
export function elevenLabsVoice(settings: ElevenLabsSettings): VoiceService {
  // The SDK is big (about 30 MB of heap once loaded): it is loaded by the first session, not by
  // every server that starts.
  let client: Promise<ElevenLabsClient> | undefined;
  const clientOf = () => {
    client ??= import('@elevenlabs/elevenlabs-js').then(
      ({ ElevenLabsClient }) =>
        new ElevenLabsClient({
          apiKey: settings.apiKey,
          ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
          timeoutInSeconds: settings.timeoutMs / 1000,
          maxRetries: 1,
        }),
    );
    // A failed load is tried again by the next session.
    client.catch(() => {
      client = undefined;
    });
    return client;
  };
  return {
    provider: 'elevenlabs',
    async connect(kind) {
      const agentId = settings.agentIds.get(kind);
      if (!agentId) throw new Error(`No ElevenLabs agent for ${kind} (ELEVENLABS_AGENT_IDS)`);
      const { signedUrl } = await (await clientOf()).conversationalAi.conversations.getSignedUrl({
        agentId,
      });
      return { signedUrl, agentId };
    },
  };
}
