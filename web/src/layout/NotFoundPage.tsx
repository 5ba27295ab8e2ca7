import { Heading, Stack, Text } from '@chakra-ui/react';
import { Telescope } from 'lucide-react';
import { LinkButton } from '../ui/LinkButton';
import { PageTitle } from '../ui/PageTitle';

export default function NotFoundPage() {
  return (
    <Stack gap="4" align="center" textAlign="center" px="4" py="20">
      <PageTitle>Page not found</PageTitle>
      <Telescope aria-hidden size={40} color="var(--chakra-colors-starlight-fg)" />
      <Heading as="h1" textStyle="pageTitle">
        Oops! Page not found
      </Heading>
      <Text color="fg.muted" maxW="md">
        We searched every corner of the sky, but this page isn't there.
      </Text>
      <LinkButton to="/">Return to Home</LinkButton>
    </Stack>
  );
}
