import { voiceMessages } from '@astra/contracts';
import { Alert, Box, Button, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { PhoneOff, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { Surface } from '../../ui/Surface';
import { formatCountdown, sessionMinutes } from './countdown';
import { VoiceGuideButton } from './VoiceGuideButton';
import { useVoiceGuide, type VoiceGuide } from './voiceGuideContext';

// The conversation controls are their own chunks, downloaded when a session starts.
const ElevenLabsConversation = lazy(() => import('./ElevenLabsConversation'));
const OfflineGuide = lazy(() => import('./OfflineGuide'));

function Countdown({ guide }: { guide: VoiceGuide }) {
  const labelId = useId();
  const seconds = guide.shownSeconds;
  return (
    <Stack
      gap="0"
      align="center"
      px="4"
      py="2"
      rounded="lg"
      borderWidth="1px"
      borderColor={guide.session ? 'starlight.border' : 'border'}
      bg="bg.subtle"
      minW="28"
    >
      <Text id={labelId} fontSize="xs" color="fg.muted" textStyle="eyebrow">
        Time remaining
      </Text>
      <Text
        role="timer"
        aria-labelledby={labelId}
        fontSize="2xl"
        fontWeight="semibold"
        fontVariantNumeric="tabular-nums"
        color={guide.session ? 'starlight.fg' : 'fg'}
      >
        {seconds === null ? '–:––' : formatCountdown(seconds)}
      </Text>
    </Stack>
  );
}

/** A session this page did not start: said as it is, and that leaving does not end it. */
function RunningElsewhere({ canTalkHere }: { canTalkHere: boolean }) {
  return (
    <Text color="fg.muted" fontSize="sm">
      A voice session of this reading is running in another window or was left open.{' '}
      {canTalkHere
        ? 'You can use the guide here too; its time keeps counting until the session ends, and leaving this page does not end it.'
        : "Its conversation is held by the window that started it. End the session here with 'End Session Early'; its time keeps counting until it ends."}
    </Text>
  );
}

function Conversation({ guide }: { guide: VoiceGuide }) {
  const { session } = guide;
  if (!session) return null;
  const { connection, sessionId } = session;
  if (session.provider === 'offline') {
    return (
      <Stack gap="3">
        {!session.owned && <RunningElsewhere canTalkHere />}
        <OfflineGuide
          context={connection?.context || guide.readingText}
          firstName={connection?.dynamicVariables.first_name || guide.firstName}
        />
      </Stack>
    );
  }
  if (connection?.provider === 'elevenlabs') {
    return (
      <ElevenLabsConversation
        key={sessionId}
        connection={connection}
        connectBy={session.connectBy}
        onConnected={() => guide.markConnected(sessionId)}
        onConnectFailed={(microphone) => guide.connectFailed(sessionId, microphone)}
        onClosed={() => guide.conversationClosed(sessionId)}
      />
    );
  }
  // Started in another window (or by a page before this one): its one-time connection is not here.
  return <RunningElsewhere canTalkHere={false} />;
}

/** A refused or missing microphone: the sentence, and Retry (nothing was started or charged). */
function MicrophoneProblemAlert({ guide }: { guide: VoiceGuide }) {
  const ref = useRef<HTMLDivElement | null>(null);
  const problem = guide.microphoneProblem;
  useEffect(() => {
    if (problem) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [problem]);
  if (!problem) return null;
  return (
    <HStack ref={ref} gap="3" wrap="wrap" role="alert">
      <Text color="fg.error">
        {problem === 'denied' ? voiceMessages.microphone : voiceMessages.noMicrophone}
      </Text>
      <Button size="sm" variant="outline" onClick={guide.press} loading={guide.starting}>
        <RotateCcw aria-hidden />
        Retry
      </Button>
    </HStack>
  );
}

/** Spec §2: the result pages' voice session card with its countdown panel. */
export function VoiceSessionCard() {
  const guide = useVoiceGuide();
  const headingId = useId();
  if (!guide) return null;
  const { status, session } = guide;
  const minutes = status ? sessionMinutes(status.sessionSeconds) : null;

  return (
    <Surface as="section" aria-labelledby={headingId} gap="4">
      <HStack justify="space-between" align="flex-start" gap="4" wrap="wrap">
        <Stack gap="1" flex="1" minW="56">
          <Heading as="h2" size="md" id={headingId}>
            Voice Session
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {status && minutes !== null
              ? `Talk your reading through with the voice guide for ${minutes} minutes. Your first session is included; each session after it costs ${status.reactivationCost} credits.`
              : 'Talk your reading through with the voice guide.'}
          </Text>
        </Stack>
        <Countdown guide={guide} />
      </HStack>

      {guide.statusFailed ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>We couldn't load the voice guide.</Alert.Title>
          <Button size="sm" variant="outline" onClick={guide.retryStatus}>
            Try again
          </Button>
        </Alert.Root>
      ) : (
        <HStack gap="3" wrap="wrap" align="flex-start">
          <VoiceGuideButton />
          {session && (
            <Button variant="outline" colorPalette="red" onClick={guide.endEarly}>
              <PhoneOff aria-hidden />
              {voiceMessages.endEarly}
            </Button>
          )}
        </HStack>
      )}

      {!session && <MicrophoneProblemAlert guide={guide} />}

      {session && (
        <Box
          ref={guide.controlRef}
          tabIndex={-1}
          role="region"
          aria-label="Voice guide conversation"
          borderTopWidth="1px"
          borderColor="border"
          pt="4"
          outline="none"
          rounded="sm"
          _focusVisible={{
            outline: '2px solid',
            outlineColor: 'brand.focusRing',
            outlineOffset: '4px',
          }}
        >
          <Suspense
            fallback={
              <HStack gap="2" role="status">
                <Spinner size="sm" aria-hidden />
                <Text color="fg.muted">Loading the voice guide…</Text>
              </HStack>
            }
          >
            <Conversation guide={guide} />
          </Suspense>
        </Box>
      )}
    </Surface>
  );
}
