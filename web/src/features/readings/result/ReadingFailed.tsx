import type { ReadingStreamFailed } from '@astra/contracts';
import { Heading, HStack, Text } from '@chakra-ui/react';
import { CircleAlert } from 'lucide-react';
import { LinkButton } from '../../../ui/LinkButton';
import { PageContainer } from '../../../ui/PageContainer';
import { PageTitle } from '../../../ui/PageTitle';
import { Surface } from '../../../ui/Surface';

interface ReadingFailedProps {
  failure: ReadingStreamFailed;
  /** The reading's form, to try again. */
  formPath: string;
}

/** The reading's text could not be written: what happened to the credits, and the way back. */
export function ReadingFailed({ failure, formPath }: ReadingFailedProps) {
  return (
    <PageContainer maxW="2xl">
      <PageTitle>Reading not completed</PageTitle>
      <Surface role="alert" alignItems="center" textAlign="center" gap="4" py="10">
        <CircleAlert aria-hidden size={40} color="var(--chakra-colors-fg-error)" />
        <Heading as="h1" textStyle="pageTitle">
          We could not finish your reading
        </Heading>
        <Text color="fg.muted" maxW="md">
          {failure.message}
          {failure.refunded ? ' Its credits were returned to your balance.' : ''}
        </Text>
        <HStack gap="3" wrap="wrap" justify="center">
          <LinkButton to={formPath}>Try again</LinkButton>
          <LinkButton to="/app" variant="outline">
            Back to Dashboard
          </LinkButton>
        </HStack>
      </Surface>
    </PageContainer>
  );
}
