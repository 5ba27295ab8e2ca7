import { voiceMessages } from '@astra/contracts';
import {
  Badge,
  Button,
  chakra,
  Field,
  Heading,
  HStack,
  Input,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Mic, MicOff, Pause, Play, Send, Square } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ConversationLog } from './ConversationLog';
import { answerFromReading, readingPassages } from './readingAnswers';
import {
  type SpeechRecognitionLike,
  speakingPieces,
  speechRecognitionConstructor,
  speechSynthesisOf,
  stopSpeaking,
} from './speech';

interface OfflineGuideProps {
  /** The reading's text: what is read aloud and what answers come from. */
  context: string;
  firstName: string | null;
}

interface Exchange {
  id: number;
  question: string | null;
  answer: string;
}

type Saying = 'idle' | 'speaking' | 'paused';

/** The reading as it is read aloud: each heading once, then its passages. */
function readAloudText(context: string): string {
  const parts: string[] = [];
  let section: string | null = null;
  for (const passage of readingPassages(context)) {
    if (passage.section && passage.section !== section) {
      section = passage.section;
      parts.push(/[.!?]$/.test(section) ? section : `${section}.`);
    }
    parts.push(passage.text);
  }
  return parts.join('\n');
}

/**
 * The offline voice guide (no voice service configured): it reads the reading aloud with the
 * browser's speech synthesis and answers questions, typed or (where the browser can) spoken,
 * with the passages of the reading that fit them best. Nothing leaves the browser.
 */
export default function OfflineGuide({ context, firstName }: OfflineGuideProps) {
  const synthesis = speechSynthesisOf();
  const Recognition = speechRecognitionConstructor();
  const [saying, setSaying] = useState<Saying>('idle');
  const [question, setQuestion] = useState('');
  const [listening, setListening] = useState(false);
  const [micProblem, setMicProblem] = useState<string | null>(null);
  const greeting = `Hello${firstName ? ` ${firstName}` : ''}. I'm your offline voice guide. I can read your reading aloud, and answer your questions with the parts of your reading that fit them best.`;
  const [exchanges, setExchanges] = useState<Exchange[]>([
    { id: 0, question: null, answer: greeting },
  ]);
  const nextId = useRef(1);
  const utteranceRun = useRef(0);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const wholeReading = useMemo(() => readAloudText(context), [context]);

  // Leaving (the session ends, the page is left): the voice stops mid-sentence.
  useEffect(
    () => () => {
      utteranceRun.current += 1;
      stopSpeaking();
      recognition.current?.abort();
    },
    [],
  );

  const say = useCallback(
    (text: string) => {
      if (!synthesis) return;
      const run = ++utteranceRun.current;
      synthesis.cancel();
      const pieces = speakingPieces(text);
      pieces.forEach((piece, index) => {
        const utterance = new SpeechSynthesisUtterance(piece);
        utterance.lang = 'en-US';
        if (index === pieces.length - 1) {
          const done = () => {
            if (utteranceRun.current === run) setSaying('idle');
          };
          utterance.onend = done;
          utterance.onerror = done;
        }
        synthesis.speak(utterance);
      });
      setSaying(pieces.length ? 'speaking' : 'idle');
    },
    [synthesis],
  );

  const play = () => {
    if (!synthesis) return;
    if (saying === 'paused') {
      synthesis.resume();
      setSaying('speaking');
    } else {
      say(wholeReading);
    }
  };
  const pause = () => {
    synthesis?.pause();
    setSaying('paused');
  };
  const stop = () => {
    utteranceRun.current += 1;
    synthesis?.cancel();
    setSaying('idle');
  };

  const ask = useCallback(
    (text: string) => {
      const asked = text.trim();
      if (!asked) return;
      const answer = answerFromReading(context, asked);
      setExchanges((all) => [
        ...all,
        { id: nextId.current++, question: asked, answer: answer.text },
      ]);
      setQuestion('');
      say(answer.text);
    },
    [context, say],
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    ask(question);
  };

  const listen = () => {
    if (!Recognition) return;
    if (listening) {
      recognition.current?.stop();
      return;
    }
    setMicProblem(null);
    const heard = new Recognition();
    heard.lang = 'en-US';
    heard.interimResults = false;
    heard.maxAlternatives = 1;
    heard.continuous = false;
    heard.onresult = (event) => {
      const transcript = event.results[0]?.[0]?.transcript ?? '';
      if (transcript.trim()) ask(transcript);
    };
    heard.onerror = (event) => {
      if (event.error === 'not-allowed' || event.error === 'service-not-allowed') {
        setMicProblem(voiceMessages.microphone);
      } else if (event.error === 'audio-capture') {
        setMicProblem(voiceMessages.noMicrophone);
      } else if (event.error !== 'no-speech' && event.error !== 'aborted') {
        setMicProblem(
          'Spoken questions are not available in this browser just now. Type your question instead.',
        );
      }
    };
    heard.onend = () => setListening(false);
    recognition.current = heard;
    try {
      stop();
      heard.start();
      setListening(true);
    } catch {
      setMicProblem(
        'Spoken questions are not available in this browser just now. Type your question instead.',
      );
    }
  };

  return (
    <Stack gap="4">
      <HStack gap="2" wrap="wrap">
        <Heading as="h3" size="sm">
          Offline voice guide
        </Heading>
        <Badge colorPalette="gray" variant="outline">
          Offline
        </Badge>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        No voice service is connected, so this guide runs in your browser: it reads your reading
        aloud with your browser's voice and answers from your own reading. Nothing you say or type
        leaves this page.
      </Text>

      <Stack gap="2">
        <Text fontWeight="semibold" fontSize="sm">
          Listen to your reading
        </Text>
        {synthesis ? (
          <HStack gap="2" wrap="wrap">
            {saying === 'speaking' ? (
              <Button size="sm" variant="outline" onClick={pause}>
                <Pause aria-hidden />
                Pause
              </Button>
            ) : (
              <Button size="sm" variant="outline" onClick={play}>
                <Play aria-hidden />
                {saying === 'paused' ? 'Resume' : 'Read my reading aloud'}
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={stop} disabled={saying === 'idle'}>
              <Square aria-hidden />
              Stop
            </Button>
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            This browser cannot read aloud; your questions below still get their answers in writing.
          </Text>
        )}
      </Stack>

      <ConversationLog label="Conversation with the offline guide">
        {exchanges.map((exchange) => (
          <chakra.li key={exchange.id} display="flex" flexDirection="column" gap="1">
            {exchange.question && (
              <Text fontSize="sm">
                <chakra.span fontWeight="semibold">You: </chakra.span>
                {exchange.question}
              </Text>
            )}
            <Text fontSize="sm" whiteSpace="pre-line">
              <chakra.span fontWeight="semibold" color="brand.fg">
                Guide:{' '}
              </chakra.span>
              {exchange.answer}
            </Text>
          </chakra.li>
        ))}
      </ConversationLog>

      <chakra.form onSubmit={onSubmit} display="flex" flexDirection="column" gap="2">
        <Field.Root>
          <Field.Label>Ask about your reading</Field.Label>
          <HStack gap="2" width="full" align="stretch" wrap={{ base: 'wrap', sm: 'nowrap' }}>
            <Input
              value={question}
              onChange={(event) => setQuestion(event.target.value)}
              placeholder="For example: what does my future hold for work?"
              maxLength={500}
              autoComplete="off"
              flex={{ base: '1 1 100%', sm: '1' }}
              minW="0"
            />
            <HStack gap="2">
              <Button type="submit" size="md" disabled={!question.trim()}>
                <Send aria-hidden />
                Ask
              </Button>
              {Recognition && (
                <Button
                  type="button"
                  size="md"
                  variant="outline"
                  onClick={listen}
                  aria-pressed={listening}
                >
                  {listening ? <MicOff aria-hidden /> : <Mic aria-hidden />}
                  {listening ? 'Stop listening' : 'Ask aloud'}
                </Button>
              )}
            </HStack>
          </HStack>
        </Field.Root>
        {micProblem && (
          <HStack gap="2" wrap="wrap" role="alert">
            <Text fontSize="sm" color="fg.error">
              {micProblem}
            </Text>
            <Button size="xs" variant="outline" onClick={listen}>
              Retry
            </Button>
          </HStack>
        )}
      </chakra.form>
    </Stack>
  );
}
