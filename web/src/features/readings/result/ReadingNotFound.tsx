import { Heading, Text } from '@chakra-ui/react';
import { SearchX } from 'lucide-react';
import { LinkButton } from '../../../ui/LinkButton';
import { PageContainer } from '../../../ui/PageContainer';
import { PageTitle } from '../../../ui/PageTitle';
import { Surface } from '../../../ui/Surface';

export interface ReadingNotFoundProps {
  title?: string;
  text: string;
  actionLabel: string;
  actionTo: string;
}

/** Spec §2: the result pages' not-found card, with a way back to generating a reading. */
export function ReadingNotFound({
  title = 'Reading Not Found',
  text,
  actionLabel,
  actionTo,
}: ReadingNotFoundProps) {
  return (
    <PageContainer maxW="2xl">
      <PageTitle>{title}</PageTitle>
      <Surface alignItems="center" textAlign="center" gap="4" py="10">
        <SearchX aria-hidden size={40} color="var(--chakra-colors-starlight-fg)" />
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        <Text color="fg.muted" maxW="md">
          {text}
        </Text>
        <LinkButton to={actionTo}>{actionLabel}</LinkButton>
      </Surface>
    </PageContainer>
  );
}
