import { Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Library } from 'lucide-react';
import type { ReactNode } from 'react';
import { BackLink } from '../../../ui/BackLink';
import { LinkButton } from '../../../ui/LinkButton';
import { PageTitle } from '../../../ui/PageTitle';

interface ResultHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Extra actions beside the library link (e.g. compatibility's 'New Reading'). */
  actions?: ReactNode;
}

/** Back to Dashboard, the page's h1 and its links: the same top on every result page. */
export function ResultHeader({ title, subtitle, actions }: ResultHeaderProps) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <HStack justify="space-between" wrap="wrap" gap="2">
        <BackLink />
        <HStack gap="2" wrap="wrap">
          {actions}
          <LinkButton to="/library" variant="outline" size="sm">
            <Library aria-hidden />
            Your Library
          </LinkButton>
        </HStack>
      </HStack>
      <Stack gap="2">
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        {subtitle && <Text color="fg.muted">{subtitle}</Text>}
      </Stack>
    </>
  );
}
