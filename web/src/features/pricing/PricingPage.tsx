import { type BillingType, subscriptionMessages } from '@astra/contracts';
import { Alert, Button, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { useGetMeQuery } from '../auth/authApi';
import { useGetAppsQuery } from '../dashboard/appsApi';
import { BillingToggle } from './BillingToggle';
import { PricingSignInDialog } from './PricingSignInDialog';
import { readPendingPurchase } from './pendingPurchase';
import { useGetPricingQuery } from './pricingApi';
import { readingEstimate } from './readingEstimate';
import { TierCard } from './TierCard';
import { purchaseKey, usePurchase } from './usePurchase';

/** A purchase waiting from before sign-in shows its own billing period; else Monthly. */
const initialBillingType = (): BillingType =>
  readPendingPurchase()?.isSubscription === false ? 'one_time' : 'subscription';

/** Spec §2 pricing: plans by billing period, bought through checkout once signed in. */
export default function PricingPage() {
  const { data: me, isLoading: meLoading } = useGetMeQuery();
  const { data: tiers, isLoading, isError, refetch } = useGetPricingQuery();
  const { data: apps } = useGetAppsQuery();
  const [billingType, setBillingType] = useState<BillingType>(initialBillingType);
  const { choose, busyKey, signInOpen, dismissSignIn } = usePurchase(Boolean(me));
  const isSubscription = billingType === 'subscription';
  const shown = tiers?.filter((tier) => tier.rows.some((row) => row.billingType === billingType));

  return (
    <PageContainer maxW="7xl">
      <PageTitle>Choose Your Journey</PageTitle>
      {me && <BackLink />}
      <Stack gap="3" align="center" textAlign="center">
        <Heading as="h1" textStyle="pageTitle">
          Choose Your Journey
        </Heading>
        <Text color="fg.muted" maxW="2xl">
          Subscribe for fresh credits every month, or buy a one-time pack. Credits work for every
          reading.
        </Text>
        <BillingToggle value={billingType} onChange={setBillingType} />
        <Text fontSize="sm" color="fg.muted">
          {isSubscription
            ? 'Renews every month until you cancel (at least 24 hours before renewal).'
            : 'Pay once: no subscription, nothing renews.'}
        </Text>
      </Stack>

      {isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{subscriptionMessages.pricingFailed}</Alert.Title>
          <Button size="sm" variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </Alert.Root>
      )}

      {isLoading && (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="5">
          {[1, 2, 3, 4].map((key) => (
            <Skeleton key={key} h="96" rounded="xl" />
          ))}
        </SimpleGrid>
      )}

      {shown && shown.length === 0 && (
        <Text textAlign="center" color="fg.muted">
          {isSubscription
            ? 'No monthly plans are available right now.'
            : 'No one-time packs are available right now.'}
        </Text>
      )}

      {shown && shown.length > 0 && (
        <SimpleGrid columns={{ base: 1, md: 2, xl: Math.min(4, shown.length) }} gap="5">
          {shown.map((tier) => {
            const row = tier.rows.find((candidate) => candidate.billingType === billingType)!;
            const purchase = { tierId: tier.id, isSubscription };
            return (
              <TierCard
                key={tier.id}
                tier={tier}
                billingType={billingType}
                estimate={readingEstimate(row.creditsIncluded, apps)}
                current={me?.subscription?.tierId === tier.id}
                busy={busyKey === purchaseKey(purchase)}
                disabled={meLoading || (busyKey !== null && busyKey !== purchaseKey(purchase))}
                onChoose={() => choose(purchase)}
              />
            );
          })}
        </SimpleGrid>
      )}

      <Text fontSize="sm" color="fg.muted" textAlign="center">
        Prices include tax. Payments are processed securely; you'll get a confirmation by e-mail.
      </Text>

      <PricingSignInDialog open={signInOpen} onDismiss={dismissSignIn} />
    </PageContainer>
  );
}
