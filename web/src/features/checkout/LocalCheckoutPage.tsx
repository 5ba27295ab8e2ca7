import {
  LOCAL_CHECKOUT_TAX_RATES,
  type LocalCheckoutSession,
  subscriptionMessages,
} from '@astra/contracts';
import {
  Alert,
  Badge,
  Button,
  DataList,
  Field,
  Heading,
  HStack,
  NativeSelect,
  Stack,
  Text,
} from '@chakra-ui/react';
import { FlaskConical } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { describeApiError } from '../../app/apiErrors';
import { LinkButton } from '../../ui/LinkButton';
import { LoadingState } from '../../ui/LoadingState';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { notifyError } from '../../ui/toaster';
import { billingTypeLabel, creditsLine, formatPrice } from '../pricing/priceFormat';
import {
  useCancelLocalCheckoutMutation,
  useGetLocalCheckoutQuery,
  usePayLocalCheckoutMutation,
} from './checkoutApi';
import { isSitePath } from './checkoutNavigation';

const TITLE = 'Test Checkout';

/**
 * Development only: the server's stand-in for Stripe's hosted page when Stripe is not
 * configured. Paying here moves no money; the server sends itself the payment's webhook.
 */
export default function LocalCheckoutPage() {
  const { sessionId = '' } = useParams();
  const { data, error, isLoading, isError, refetch } = useGetLocalCheckoutQuery(sessionId, {
    refetchOnMountOrArgChange: true,
  });

  let content: ReactNode;
  if (isLoading) content = <LoadingState />;
  else if (isError && describeApiError(error).status === 404) {
    content = (
      <Outcome title="Checkout not found">
        This checkout does not exist or belongs to another account.
      </Outcome>
    );
  } else if (isError || !data) {
    content = (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>We couldn't load this checkout.</Alert.Title>
        <Button size="sm" variant="outline" onClick={() => refetch()}>
          Try again
        </Button>
      </Alert.Root>
    );
  } else if (data.status === 'paid') {
    content = (
      <Outcome
        title="Already paid"
        next={{
          to: `/success?session_id=${encodeURIComponent(data.sessionId)}`,
          label: 'See payment',
        }}
      >
        This checkout for {data.tierName} has already been paid.
      </Outcome>
    );
  } else if (data.status === 'canceled') {
    content = (
      <Outcome title="Checkout canceled">
        This checkout for {data.tierName} was canceled, so nothing was charged.
      </Outcome>
    );
  } else {
    content = <OpenCheckout session={data} />;
  }

  return (
    <PageContainer maxW="xl">
      <PageTitle>{TITLE}</PageTitle>
      <Stack gap="2">
        <HStack gap="3" wrap="wrap">
          <Heading as="h1" textStyle="pageTitle">
            {TITLE}
          </Heading>
          <Badge colorPalette="orange" variant="subtle" size="lg">
            Test mode
          </Badge>
        </HStack>
        <Alert.Root status="warning">
          <Alert.Indicator>
            <FlaskConical aria-hidden />
          </Alert.Indicator>
          <Alert.Content>
            <Alert.Title>No real payment happens here</Alert.Title>
            <Alert.Description>
              Payments are not configured on this server, so this page stands in for the payment
              provider. Paying grants the credits without charging anyone.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      </Stack>
      {content}
    </PageContainer>
  );
}

function OpenCheckout({ session }: { session: LocalCheckoutSession }) {
  const navigate = useNavigate();
  const [pay, { isLoading: paying }] = usePayLocalCheckoutMutation();
  const [cancel, { isLoading: canceling }] = useCancelLocalCheckoutMutation();
  const price = formatPrice(session.price, session.currency);
  // The customer's country sets the tax in the price, as Stripe Tax would ('' records none).
  const [country, setCountry] = useState('');

  const finish = async (action: () => Promise<{ redirectUrl: string }>) => {
    try {
      const { redirectUrl } = await action();
      if (isSitePath(redirectUrl)) navigate(redirectUrl, { replace: true });
      else window.location.assign(redirectUrl);
    } catch (failure) {
      const info = describeApiError(failure);
      notifyError(info.message ?? subscriptionMessages.unexpected);
    }
  };

  return (
    <Surface as="section" aria-labelledby="order-heading" tone="glow" gap="5">
      <Heading as="h2" size="lg" id="order-heading">
        Your order
      </Heading>
      <DataList.Root orientation="horizontal" size="lg">
        <DataList.Item>
          <DataList.ItemLabel>Plan</DataList.ItemLabel>
          <DataList.ItemValue>{session.tierName}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Billing</DataList.ItemLabel>
          <DataList.ItemValue>{billingTypeLabel(session.billingType)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Price</DataList.ItemLabel>
          <DataList.ItemValue fontWeight="semibold">
            {session.billingType === 'subscription' ? `${price}/month` : price}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Credits</DataList.ItemLabel>
          <DataList.ItemValue>
            {creditsLine(session.credits, session.billingType)}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Field.Root maxW="sm">
        <Field.Label>Country (for the tax)</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            name="country"
            value={country}
            onChange={(event) => setCountry(event.target.value)}
          >
            <option value="">No tax (as with Stripe Tax off)</option>
            {Object.entries(LOCAL_CHECKOUT_TAX_RATES).map(([code, rate]) => (
              <option key={code} value={code}>
                {code}: VAT {rate}%
              </option>
            ))}
            <option value="US">US: no VAT (0%)</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <HStack gap="3" wrap="wrap">
        <Button
          onClick={() =>
            finish(() =>
              pay({ sessionId: session.sessionId, ...(country ? { country } : {}) }).unwrap(),
            )
          }
          loading={paying}
          loadingText="Paying..."
          disabled={canceling}
        >
          Pay
        </Button>
        <Button
          variant="outline"
          onClick={() => finish(() => cancel(session.sessionId).unwrap())}
          loading={canceling}
          loadingText="Canceling..."
          disabled={paying}
        >
          Cancel
        </Button>
      </HStack>
    </Surface>
  );
}

interface OutcomeProps {
  title: string;
  children: ReactNode;
  next?: { to: string; label: string };
}

/** A checkout that cannot be paid any more: what happened, and where to go. */
function Outcome({ title, children, next }: OutcomeProps) {
  return (
    <Surface as="section" aria-labelledby="outcome-heading" alignItems="flex-start" gap="4">
      <Heading as="h2" size="lg" id="outcome-heading">
        {title}
      </Heading>
      <Text>{children}</Text>
      <HStack gap="3" wrap="wrap">
        {next && <LinkButton to={next.to}>{next.label}</LinkButton>}
        <LinkButton to="/pricing" variant={next ? 'outline' : 'solid'}>
          View Plans
        </LinkButton>
      </HStack>
    </Surface>
  );
}
