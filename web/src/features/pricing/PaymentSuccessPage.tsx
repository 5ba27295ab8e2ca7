import { subscriptionMessages } from '@astra/contracts';
import { Button, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { CircleCheck, CircleX, Hourglass, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { useCurrentUser } from '../auth/authApi';
import { useGetSiteQuery } from '../site/siteApi';
import { creditsText } from './priceFormat';
import { clearPurchaseReturn, readPurchaseReturn, returnPathName } from './purchaseReturn';
import { SupportEmailLink } from './SupportEmailLink';
import { useCheckoutConfirmation } from './useCheckoutConfirmation';

type Confirmation = ReturnType<typeof useCheckoutConfirmation>;

/**
 * What this page can truthfully say. Only a payment the server reports `complete` is called
 * successful; a missing, unknown or unconfirmed session is named for what it is.
 */
type Outcome = 'confirmed' | 'processing' | 'slow' | 'canceled' | 'unknown';

const TITLES: Record<Outcome, string> = {
  confirmed: subscriptionMessages.paymentSuccessful,
  processing: 'Confirming your payment…',
  slow: 'Your payment is still being confirmed',
  canceled: subscriptionMessages.paymentCanceled,
  unknown: "We couldn't find this payment",
};

function outcomeOf(sessionId: string | null, confirmation: Confirmation): Outcome {
  if (!sessionId || confirmation.notFound) return 'unknown';
  if (confirmation.landed) return 'confirmed';
  if (confirmation.canceled) return 'canceled';
  return confirmation.timedOut ? 'slow' : 'processing';
}

/** Where a payment page sends the buyer back: '/success?session_id=…'. */
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const confirmation = useCheckoutConfirmation(sessionId);
  const outcome = outcomeOf(sessionId, confirmation);
  const title = TITLES[outcome];

  return (
    <PageContainer maxW="2xl">
      <PageTitle>{title}</PageTitle>
      <Surface
        tone={outcome === 'confirmed' ? 'glow' : 'plain'}
        alignItems="center"
        textAlign="center"
        gap="5"
        py="10"
      >
        <OutcomeIcon outcome={outcome} />
        <Stack gap="3" align="center" aria-live="polite">
          <Heading as="h1" textStyle="pageTitle">
            {title}
          </Heading>
          <OutcomeText outcome={outcome} confirmation={confirmation} />
        </Stack>
        <OutcomeLinks outcome={outcome} />
      </Surface>
    </PageContainer>
  );
}

function OutcomeIcon({ outcome }: { outcome: Outcome }) {
  if (outcome === 'processing') return <Spinner size="xl" color="brand.fg" aria-hidden />;
  const Icon = { confirmed: CircleCheck, slow: Hourglass, canceled: CircleX, unknown: SearchX }[
    outcome
  ];
  const tone = outcome === 'confirmed' ? 'success' : 'muted';
  return <Icon aria-hidden size={44} color={`var(--chakra-colors-fg-${tone})`} />;
}

function OutcomeText({ outcome, confirmation }: { outcome: Outcome; confirmation: Confirmation }) {
  const { status, checkAgain } = confirmation;

  switch (outcome) {
    case 'confirmed':
      return (
        <>
          <Text fontSize="lg" fontWeight="semibold">
            {creditsText(status?.creditsAdded ?? 0)} added to your balance.
          </Text>
          <Text color="fg.muted">
            {status?.billingType === 'subscription'
              ? `Your ${status.tierName} subscription is active.`
              : `Your ${status?.tierName} credit pack is ready to use.`}{' '}
            Your new balance is {creditsText(status?.remainingCredits ?? 0)}.
          </Text>
          <ConfirmationMailLine />
        </>
      );
    case 'canceled':
      return <Text>This checkout was canceled, so no charge was made.</Text>;
    case 'unknown':
      return (
        <Text>
          There is no confirmed payment behind this page. If you were charged, your credits will
          appear in your <TextLink to="/credits">credit history</TextLink> shortly; if they don't,
          write to <SupportEmailLink />.
        </Text>
      );
    case 'slow':
      return (
        <>
          <Text>
            The payment provider has not confirmed this payment yet. Nothing is lost: your credits
            appear in your balance as soon as it does, and your{' '}
            <TextLink to="/credits">credit history</TextLink> lists them as they land.
          </Text>
          <Button size="sm" variant="outline" onClick={checkAgain}>
            Check again
          </Button>
        </>
      );
    default:
      return (
        <Text color="fg.muted">
          We're waiting for the payment provider to confirm it. This usually takes a few seconds.
        </Text>
      );
  }
}

/**
 * Where the confirmation e-mail goes, as the server is configured: with SMTP, to the buyer's
 * address; without, nowhere off the server, so the page points to the development mailbox.
 * Nothing is promised while the server's configuration is unknown.
 */
function ConfirmationMailLine() {
  const { me } = useCurrentUser();
  const { data: site } = useGetSiteQuery();
  if (site?.mail === 'development_mailbox') {
    return (
      <Text fontSize="sm" color="fg.muted">
        No e-mail leaves this development server: the confirmation is in the{' '}
        <TextLink to="/dev/mail">development mailbox</TextLink>.
      </Text>
    );
  }
  // Loading, or a server that does not say where its e-mail goes: no promise.
  if (site?.mail !== 'smtp') return null;
  return (
    <Text fontSize="sm" color="fg.muted">
      {me
        ? `A confirmation e-mail is on its way to ${me.email}.`
        : 'A confirmation e-mail follows shortly.'}
    </Text>
  );
}

/** A paid purchase that began at a reading form short of credits leads back to that form. */
function OutcomeLinks({ outcome }: { outcome: Outcome }) {
  const [returnTo] = useState(readPurchaseReturn);

  if (outcome === 'unknown') {
    return (
      <HStack gap="3" wrap="wrap" justify="center">
        <LinkButton to="/pricing">View Plans</LinkButton>
        <LinkButton to="/credits" variant="outline">
          Credit History
        </LinkButton>
      </HStack>
    );
  }
  return (
    <HStack gap="3" wrap="wrap" justify="center">
      {outcome === 'confirmed' && returnTo && (
        <LinkButton to={returnTo} onClick={clearPurchaseReturn}>
          Back to {returnPathName(returnTo)}
        </LinkButton>
      )}
      <LinkButton to="/app" variant={outcome === 'confirmed' && returnTo ? 'outline' : 'solid'}>
        Go to Dashboard
      </LinkButton>
      <LinkButton to="/pricing" variant="outline">
        View Plans
      </LinkButton>
    </HStack>
  );
}
