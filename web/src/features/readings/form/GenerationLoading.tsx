import { Box, Heading, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { Surface } from '../../../ui/Surface';

/** A start answers within a moment; the card shows only when it takes longer than this. */
const SHOW_AFTER_MS = 400;

/**
 * The card over the form while its reading is started (spent for, its facts computed). The
 * result page follows at once and the text streams in there, so this is seldom seen.
 */
export function GenerationLoading() {
  const cardRef = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  // The form below turns inert, so focus moves here and the status is read out.
  useEffect(() => {
    if (shown) cardRef.current?.focus();
  }, [shown]);
  if (!shown) return null;

  return (
    <Box
      position="fixed"
      inset="0"
      zIndex="overlay"
      bg="bg/85"
      backdropFilter="blur(6px)"
      display="flex"
      alignItems="center"
      justifyContent="center"
      p="4"
    >
      <Surface
        ref={cardRef}
        tabIndex={-1}
        role="status"
        aria-live="polite"
        tone="glow"
        maxW="md"
        w="full"
        alignItems="center"
        textAlign="center"
        gap="4"
        outline="none"
      >
        <Spinner size="xl" color="brand.fg" borderWidth="3px" aria-hidden />
        <Heading as="h2" size="lg">
          Preparing your reading...
        </Heading>
        <Text color="fg.muted">Your reading opens in a moment; its text is written there.</Text>
      </Surface>
    </Box>
  );
}
