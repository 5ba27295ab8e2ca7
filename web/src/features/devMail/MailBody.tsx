import { Box, Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';

type View = 'html' | 'text';

const VIEWS: { id: View; label: string }[] = [
  { id: 'html', label: 'HTML' },
  { id: 'text', label: 'Plain text' },
];

interface MailBodyProps {
  /** Names the frame and the text for assistive technology: the message's subject. */
  subject: string;
  html: string;
  text: string;
}

/**
 * A message's two parts, one at a time. The HTML renders in a sandboxed frame (no scripts, no
 * forms, no access to this page), on white as a mail client shows it in either colour mode.
 */
export function MailBody({ subject, html, text }: MailBodyProps) {
  const [view, setView] = useState<View>('html');
  return (
    <Stack gap="3">
      <HStack role="group" aria-label="Show the message as" gap="2">
        {VIEWS.map((option) => (
          <Button
            key={option.id}
            size="xs"
            variant={view === option.id ? 'solid' : 'outline'}
            aria-pressed={view === option.id}
            onClick={() => setView(option.id)}
          >
            {option.label}
          </Button>
        ))}
      </HStack>
      {view === 'html' ? (
        html ? (
          <chakra.iframe
            sandbox=""
            srcDoc={html}
            title={`HTML of “${subject}”`}
            w="full"
            h={{ base: '28rem', md: '36rem' }}
            bg="white"
            borderWidth="1px"
            borderColor="border"
            rounded="md"
          />
        ) : (
          <Text fontSize="sm" color="fg.muted">
            This message has no HTML part (its owner's personal data was erased).
          </Text>
        )
      ) : (
        <Box
          as="pre"
          fontSize="sm"
          bg="bg.subtle"
          borderWidth="1px"
          borderColor="border"
          rounded="md"
          p="3"
          maxH="36rem"
          overflow="auto"
          whiteSpace="pre-wrap"
          wordBreak="break-word"
          tabIndex={0}
          aria-label={`Plain text of “${subject}”`}
        >
          {text || '(empty)'}
        </Box>
      )}
    </Stack>
  );
}
