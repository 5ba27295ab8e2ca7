import { type VoiceConnection, voiceMessages } from '@astra/contracts';
import {
  Badge,
  Box,
  Button,
  chakra,
  Heading,
  HStack,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ConversationProvider, useConversation } from '@elevenlabs/react';
import { Mic, MicOff, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

type ElevenLabsConnection = Extract<VoiceConnection, { provider: 'elevenlabs' }>;

interface ElevenLabsConversationProps {
  connection: ElevenLabsConnection;
  onConnected: () => void;
  /** The conversation could not be made: the session ends, and nothing is charged for it. */
  onConnectFailed: () => void;
}

/** How long a connection may take before the session is given up as never connected. */
const CONNECT_TIMEOUT_MS = 20_000;

type Microphone = 'asking' | 'granted' | 'denied' | 'missing';

interface Line {
  id: number;
  role: 'user' | 'agent';
  text: string;
}

/** The reading handed to the agent as background it may draw on (not spoken, not a prompt). */
const contextUpdate = (context: string) =>
  `The reading this conversation is about, as the user received it:\n\n${context}`;

async function askForMicrophone(): Promise<Microphone> {
  if (!navigator.mediaDevices?.getUserMedia) return 'missing';
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return 'granted';
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    return name === 'NotFoundError' ||
      name === 'OverconstrainedError' ||
      name === 'NotReadableError'
      ? 'missing'
      : 'denied';
  }
}

function Conversation({ connection, onConnected, onConnectFailed }: ElevenLabsConversationProps) {
  const [microphone, setMicrophone] = useState<Microphone>('asking');
  const [attempt, setAttempt] = useState(0);
  const [lines, setLines] = useState<Line[]>([]);
  const connected = useRef(false);
  const failed = useRef(false);
  const nextLine = useRef(0);
  const contextSent = useRef(false);

  const giveUp = () => {
    if (connected.current || failed.current) return;
    failed.current = true;
    onConnectFailed();
  };

  const conversation = useConversation({
    onConnect: () => {
      connected.current = true;
      onConnected();
    },
    onError: () => giveUp(),
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

  // The microphone first: a refusal is explained, with a way to try again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again on each retry
  useEffect(() => {
    let cancelled = false;
    setMicrophone('asking');
    void askForMicrophone().then((answer) => {
      if (!cancelled) setMicrophone(answer);
    });
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  // Then the conversation, with the reading's variables; given up if it never connects.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one start per granted microphone
  useEffect(() => {
    if (microphone !== 'granted') return;
    startSession({
      signedUrl: connection.signedUrl,
      connectionType: 'websocket',
      dynamicVariables: connection.dynamicVariables,
    });
    const timer = window.setTimeout(giveUp, CONNECT_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [microphone]);

  // The reading as the agent's context, once connected.
  useEffect(() => {
    if (status !== 'connected' || contextSent.current) return;
    contextSent.current = true;
    sendContextualUpdate(contextUpdate(connection.context));
  }, [connection.context, sendContextualUpdate, status]);

  useEffect(() => () => endSession(), [endSession]);

  if (microphone === 'denied' || microphone === 'missing') {
    return (
      <Stack gap="2" role="alert">
        <Text color="fg.error">
          {microphone === 'denied' ? voiceMessages.microphone : voiceMessages.noMicrophone}
        </Text>
        <Button
          size="sm"
          variant="outline"
          alignSelf="flex-start"
          onClick={() => setAttempt((n) => n + 1)}
        >
          <RotateCcw aria-hidden />
          Retry
        </Button>
      </Stack>
    );
  }

  const state =
    microphone === 'asking'
      ? 'Waiting for your microphone…'
      : status === 'connected'
        ? isSpeaking
          ? 'Your guide is speaking'
          : 'Your guide is listening'
        : status === 'error'
          ? 'The voice guide could not be reached.'
          : 'Connecting to your voice guide…';

  return (
    <Stack gap="3">
      <HStack gap="3" wrap="wrap">
        {status !== 'connected' && status !== 'error' && <Spinner size="sm" aria-hidden />}
        <Text aria-live="polite" fontWeight="medium">
          {state}
        </Text>
        {status === 'connected' && (
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
        <Box
          role="log"
          aria-label="Conversation transcript"
          borderWidth="1px"
          borderColor="border"
          rounded="md"
          bg="bg.subtle"
          p="3"
          maxH="64"
          overflowY="auto"
          tabIndex={0}
        >
          <Stack as="ol" gap="2" listStyleType="none">
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
          </Stack>
        </Box>
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
