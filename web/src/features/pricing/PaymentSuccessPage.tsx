import { subscriptionMessages } from '@astra/contracts';
import { Button, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { CircleCheck, CircleX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { useCurrentUser } from '../auth/authApi';
import { creditsText } from './priceFormat';
import { SupportEmailLink } from './SupportEmailLink';
import { useCheckoutConfirmation } from './useCheckoutConfirmation';

type Confirmation = ReturnType<typeof useCheckoutConfirmation>;

/** Where a payment page sends the buyer back: '/success?session_id=…'. */
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const { me } = useCurrentUser();
  const confirmation = useCheckoutConfirmation(sessionId);
  const title = confirmation.canceled
    ? subscriptionMessages.paymentCanceled
    : subscriptionMessages.paymentSuccessful;
  const Icon = confirmation.canceled ? CircleX : CircleCheck;

  return (
    <PageContainer maxW="2xl">
      <PageTitle>{title}</PageTitle>
      <Surface tone="glow" alignItems="center" textAlign="center" gap="5" py="10">
        <Icon
          aria-hidden
          size={44}
          color={`var(--chakra-colors-fg-${confirmation.canceled ? 'muted' : 'success'})`}
        />
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        <Stack gap="3" align="center" aria-live="polite">
          {sessionId ? (
            <ConfirmationText confirmation={confirmation} />
          ) : (
            <Text>
              Thank you for your purchase. Your credits will appear in your balance shortly.
            </Text>
          )}
        </Stack>
        {!confirmation.canceled && (
          <Text fontSize="sm" color="fg.muted">
            A confirmation e-mail {me ? `is on its way to ${me.email}` : 'follows shortly'}.
          </Text>
        )}
        <HStack gap="3" wrap="wrap" justify="center">
          <LinkButton to="/app">Go to Dashboard</LinkButton>
          <LinkButton to="/pricing" variant="outline">
            View Plans
          </LinkButton>
        </HStack>
      </Surface>
    </PageContainer>
  );
}

function ConfirmationText({ confirmation }: { confirmation: Confirmation }) {
  const { status, landed, canceled, notFound, timedOut, checkAgain } = confirmation;

  if (landed && status) {
    return (
      <>
        <Text fontSize="lg" fontWeight="semibold">
          {creditsText(status.creditsAdded ?? 0)} added to your balance.
        </Text>
        <Text color="fg.muted">
          {status.billingType === 'subscription'
            ? `Your ${status.tierName} subscription is active.`
            : `Your ${status.tierName} credit pack is ready to use.`}{' '}
          Your new balance is {creditsText(status.remainingCredits)}.
        </Text>
      </>
    );
  }
  if (canceled) return <Text>This checkout was canceled, so no charge was made.</Text>;
  if (notFound) {
    return (
      <Text>
        We couldn't find this payment. If you were charged, your credits will appear shortly; if
        they don't, write to <SupportEmailLink />.
      </Text>
    );
  }
  if (timedOut) {
    return (
      <>
        <Text>
          Confirming your payment is taking longer than usual. Your credits will appear in your
          balance shortly, and your <TextLink to="/credits">credit history</TextLink> lists them as
          they land.
        </Text>
        <Button size="sm" variant="outline" onClick={checkAgain}>
          Check again
        </Button>
      </>
    );
  }
  return (
    <HStack role="status" gap="3">
      <Spinner size="sm" color="brand.fg" aria-hidden />
      <Text>Confirming your payment…</Text>
    </HStack>
  );
}
