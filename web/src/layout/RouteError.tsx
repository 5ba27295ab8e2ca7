import { Box, Button, Code, Heading, Stack, Text } from '@chakra-ui/react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { LinkButton } from '../ui/LinkButton';

const describe = (error: unknown): string => {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
};

/**
 * The router's error screen. `standalone` is for errors above the shell, where this screen
 * must bring its own <main>.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  console.error(error);
  const content = (
    <Stack gap="4" maxW="2xl" mx="auto" px="4" py="16" align="flex-start">
      <title>Unexpected Application Error! · Astra</title>
      <Heading as="h1" textStyle="pageTitle">
        Unexpected Application Error!
      </Heading>
      <Text color="fg.muted">
        Something went wrong while showing this page. Reloading usually helps.
      </Text>
      <Code whiteSpace="pre-wrap" p="3" w="full">
        {describe(error)}
      </Code>
      <Stack direction="row" gap="3">
        <Button onClick={() => window.location.reload()}>Reload page</Button>
        <LinkButton to="/" variant="outline">
          Back to Home
        </LinkButton>
      </Stack>
    </Stack>
  );
  return standalone ? <Box as="main">{content}</Box> : content;
}
