import { type VoiceConnection, voiceMessages } from '@astra/contracts';
import { Badge, Button, chakra, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { ConversationProvider, useConversation } from '@elevenlabs/react';
import { Mic, MicOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConversationLog } from './ConversationLog';
import { askForMicrophone, type MicrophoneProblem, microphoneProblemOf } from './microphone';

type ElevenLabsConnection = Extract<VoiceConnection, { provider: 'elevenlabs' }>;

interface ElevenLabsConversationProps {
  connection: ElevenLabsConnection;
  /**
   * By when (browser clock, ms) the conversation must be connected: 20 s after the session's
   * start on the server, so a conversation that never comes up is ended while it is refunded.
   */
  connectBy: number;
  onConnected: () => void;
  /**
   * The conversation could not be made (in time, or the microphone was refused or is gone): the
   * session ends at once, and nothing is charged for it.
   */
  onConnectFailed: (microphone?: MicrophoneProblem) => void;
  /** The conversation closed (the voice service hung up, the network went): the session ends. */
  onClosed: () => void;
}

/** Where the conversation is: the microphone asked again, connecting, talking, or over. */
type Phase = 'microphone' | 'connecting' | 'connected' | 'closed';

interface Line {
  id: number;
  role: 'user' | 'agent';
  text: string;
}

/** The reading handed to the agent as background it may draw on (not spoken, not a prompt). */
const contextUpdate = (context: string) =>
  `The reading this conversation is about, as the user received it:\n\n${context}`;

function Conversation({
  connection,
  connectBy,
  onConnected,
  onConnectFailed,
  onClosed,
}: ElevenLabsConversationProps) {
  const [phase, setPhase] = useState<Phase>('microphone');
  const [lines, setLines] = useState<Line[]>([]);
  const connected = useRef(false);
  /** The session was given up or closed (reported once), or this control is going away. */
  const over = useRef(false);
  const nextLine = useRef(0);
  const contextSent = useRef(false);

  const giveUp = (microphone?: MicrophoneProblem) => {
    if (connected.current || over.current) return;
    over.current = true;
    setPhase('closed');
    onConnectFailed(microphone);
  };
  const close = () => {
    if (over.current) return;
    over.current = true;
    setPhase('closed');
    onClosed();
  };

  const conversation = useConversation({
    onConnect: () => {
      if (over.current) return;
      connected.current = true;
      setPhase('connected');
      onConnected();
    },
    // Before the conversation is up, an error is a connection never made (the SDK's own
    // microphone request among them); after, the disconnect that follows ends the session.
    onError: (_message, context) => {
      if (!connected.current) giveUp(microphoneProblemOf(context) ?? undefined);
    },
    // Hung up by the agent, the service or the network: the session ends here too (as an early
    // end once it had connected, else as a connection never made), not "Connecting…" again.
    onDisconnect: () => close(),
    onMessage: ({ message, role }) => {
      if (!message.trim()) return;
      setLines((all) => [
        ...all.slice(-19),
        { id: nextLine.current++, role: role === 'user' ? 'user' : 'agent', text: message },
      ]);
    },
  });
  const { status, isSpeaking, isMuted, setMuted, startSession, endSession, sendContextualUpdate } =
    conversation;

  // Connected by `connectBy` (timed from the server's start), or given up: while it can still be
  // told as never connected, so its reactivation is refunded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one deadline per session
  useEffect(() => {
    const timer = window.setTimeout(() => giveUp(), Math.max(0, connectBy - Date.now()));
    return () => window.clearTimeout(timer);
  }, []);

  // The microphone (allowed before the start) asked again, then the conversation with the
  // reading's variables. A microphone refused or gone by now ends the session at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one start per session
  useEffect(() => {
    let cancelled = false;
    void askForMicrophone().then((answer) => {
      if (cancelled || over.current) return;
      if (answer !== 'granted') {
        giveUp(answer);
        return;
      }
      setPhase('connecting');
      startSession({
        signedUrl: connection.signedUrl,
        connectionType: 'websocket',
        dynamicVariables: connection.dynamicVariables,
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // The reading as the agent's context, once connected.
  useEffect(() => {
    if (status !== 'connected' || contextSent.current) return;
    contextSent.current = true;
    sendContextualUpdate(contextUpdate(connection.context));
  }, [connection.context, sendContextualUpdate, status]);

  // Going away (the session ended here, the page was left): the conversation is hung up, and
  // the disconnect that follows reports nothing. (Reset on mount for StrictMode's second mount.)
  useEffect(() => {
    over.current = false;
    return () => {
      over.current = true;
      endSession();
    };
  }, [endSession]);

  const live = phase === 'connected' && status === 'connected';
  const state =
    phase === 'closed'
      ? voiceMessages.ended
      : phase === 'microphone'
        ? 'Waiting for your microphone…'
        : live
          ? isSpeaking
            ? 'Your guide is speaking'
            : 'Your guide is listening'
          : 'Connecting to your voice guide…';

  return (
    <Stack gap="3">
      <HStack gap="3" wrap="wrap">
        {!live && phase !== 'closed' && <Spinner size="sm" aria-hidden />}
        <Text aria-live="polite" fontWeight="medium">
          {state}
        </Text>
        {live && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => setMuted(!isMuted)}
            aria-pressed={isMuted}
          >
            {isMuted ? <MicOff aria-hidden /> : <Mic aria-hidden />}
            {isMuted ? 'Unmute microphone' : 'Mute microphone'}
          </Button>
        )}
      </HStack>
      {lines.length > 0 && (
        <ConversationLog label="Conversation transcript">
          {lines.map((line) => (
            <chakra.li key={line.id} fontSize="sm">
              <chakra.span
                fontWeight="semibold"
                color={line.role === 'agent' ? 'brand.fg' : undefined}
              >
                {line.role === 'agent' ? 'Guide: ' : 'You: '}
              </chakra.span>
              {line.text}
            </chakra.li>
          ))}
        </ConversationLog>
      )}
      <Text fontSize="xs" color="fg.muted">
        Astra keeps no audio or transcript of this conversation; the voice service deletes its
        recordings within 30 days.
      </Text>
    </Stack>
  );
}

/** The conversation with the ElevenLabs agent of this reading (its own chunk, result pages only). */
export default function ElevenLabsConversation(props: ElevenLabsConversationProps) {
  return (
    <Stack gap="3">
      <HStack gap="2" wrap="wrap">
        <Heading as="h3" size="sm">
          Voice guide
        </Heading>
        <Badge colorPalette="green" variant="subtle">
          Live
        </Badge>
      </HStack>
      <ConversationProvider>
        <Conversation {...props} />
      </ConversationProvider>
    </Stack>
  );
}
