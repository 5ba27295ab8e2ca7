import { Box, Heading, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { Surface } from '../../../ui/Surface';

/** Spec §2: the full-screen card while a reading is written ("up to 90 / 45 seconds"). */
export function GenerationLoading({ seconds }: { seconds: number }) {
  const cardRef = useRef<HTMLDivElement>(null);
  // The form below turns inert, so focus moves here and the status is read out.
  useEffect(() => cardRef.current?.focus(), []);

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
          Generating your reading...
        </Heading>
        <Text color="fg.muted">
          This may take up to {seconds} seconds. Please keep this page open.
        </Text>
      </Surface>
    </Box>
  );
}
