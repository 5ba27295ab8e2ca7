import { Box, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The scrolling record of a conversation with a guide (a list of `chakra.li` lines). */
export function ConversationLog({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="log"
      aria-live="polite"
      aria-label={label}
      borderWidth="1px"
      borderColor="border"
      rounded="md"
      bg="bg.subtle"
      p="3"
      maxH="72"
      overflowY="auto"
      tabIndex={0}
    >
      <Stack as="ol" gap="2" listStyleType="none">
        {children}
      </Stack>
    </Box>
  );
}
