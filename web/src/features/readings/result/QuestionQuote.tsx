import { Box, Text } from '@chakra-ui/react';

/** The question a tarot reading answers, quoted under the page title. */
export function QuestionQuote({ question, firstName }: { question?: string; firstName?: string }) {
  if (!question) return null;
  return (
    <Box as="figure" borderStartWidth="4px" borderColor="starlight.border" ps="4" py="1">
      <Box as="blockquote">
        <Text fontStyle="italic" fontSize="lg" wordBreak="break-word">
          “{question}”
        </Text>
      </Box>
      {firstName && (
        <Text as="figcaption" fontSize="sm" color="fg.muted" mt="1">
          Asked by {firstName}
        </Text>
      )}
    </Box>
  );
}
