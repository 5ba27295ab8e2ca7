import { subscriptionMessages } from '@astra/contracts';
import { Heading, HStack, Text } from '@chakra-ui/react';
import { CircleX } from 'lucide-react';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { SupportEmailLink } from './SupportEmailLink';

/** Where a payment page sends the buyer who left checkout: nothing was charged. */
export default function PaymentCancelPage() {
  return (
    <PageContainer maxW="2xl">
      <PageTitle>{subscriptionMessages.paymentCanceled}</PageTitle>
      <Surface alignItems="center" textAlign="center" gap="5" py="10">
        <CircleX aria-hidden size={44} color="var(--chakra-colors-fg-muted)" />
        <Heading as="h1" textStyle="pageTitle">
          {subscriptionMessages.paymentCanceled}
        </Heading>
        <Text>Your payment was canceled and no charge was made.</Text>
        <Text color="fg.muted">
          Changed your mind? Your plans are still there whenever you're ready.
        </Text>
        <HStack gap="3" wrap="wrap" justify="center">
          <LinkButton to="/app">Go to Dashboard</LinkButton>
          <LinkButton to="/pricing" variant="outline">
            View Plans
          </LinkButton>
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          Questions about a payment? Write to <SupportEmailLink />.
        </Text>
      </Surface>
    </PageContainer>
  );
}
