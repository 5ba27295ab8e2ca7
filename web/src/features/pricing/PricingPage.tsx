import { type BillingType, readingMessages, subscriptionMessages } from '@astra/contracts';
import { Alert, Button, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { useGetMeQuery } from '../auth/authApi';
import { useGetAppsQuery } from '../dashboard/appsApi';
import { BillingToggle } from './BillingToggle';
import { PricingSignInDialog } from './PricingSignInDialog';
import { readPendingPurchase } from './pendingPurchase';
import { currencyLabel, formatPrice } from './priceFormat';
import { useGetPricingQuery } from './pricingApi';
import {
  clearPurchaseReturn,
  isReturnPath,
  RETURN_PARAM,
  returnPathName,
  savePurchaseReturn,
} from './purchaseReturn';
import { readingEstimate } from './readingEstimate';
import { TierAction } from './TierAction';
import { TierCard } from './TierCard';
import { purchaseKey, usePurchase } from './usePurchase';

/** A purchase waiting from before sign-in shows its own billing period; else Monthly. */
const initialBillingType = (): BillingType =>
  readPendingPurchase()?.isSubscription === false ? 'one_time' : 'subscription';

/**
 * How the balance is kept, in one sentence: a plan's renewal must never be read as a threat to
 * credits bought or given.
 */
export const CREDIT_RULE =
  "Your balance is kept by source: only subscription credits are capped at a renewal (at most one month's worth rolls over), while purchased packs, free and promotional credits never expire and never count against that cap; readings spend subscription credits first, then free, then promotional, then purchased ones (oldest first).";

/** Spec §2 pricing: plans by billing period, bought through checkout once signed in. */
export default function PricingPage() {
  const { data: me, isLoading: meLoading } = useGetMeQuery();
  const { data: pricing, isLoading, isError, refetch } = useGetPricingQuery();
  const [params] = useSearchParams();
  const returnTo = params.get(RETURN_PARAM);
  const returning = isReturnPath(returnTo);
  const { data: apps } = useGetAppsQuery();
  const [billingType, setBillingType] = useState<BillingType>(initialBillingType);
  const { choose, busyKey, signInOpen, dismissSignIn } = usePurchase(Boolean(me));
  const isSubscription = billingType === 'subscription';
  const shown = pricing?.tiers.filter((tier) =>
    tier.rows.some((row) => row.billingType === billingType),
  );

  // Sent here by a reading form short of credits: after paying, the way back is offered. A
  // visit from anywhere else forgets an old way back, so a later purchase is not sent there.
  useEffect(() => {
    if (returning) savePurchaseReturn(returnTo);
    else clearPurchaseReturn();
  }, [returning, returnTo]);

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
        <Text fontSize="sm" maxW="3xl">
          {CREDIT_RULE}
        </Text>
        <BillingToggle value={billingType} onChange={setBillingType} />
        <Text fontSize="sm" color="fg.muted">
          {isSubscription
            ? 'Renews every month until you cancel (at least 24 hours before renewal).'
            : 'Pay once: no subscription, nothing renews.'}
        </Text>
      </Stack>

      {returning && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{readingMessages.insufficientCredits}</Alert.Title>
            <Alert.Description>
              Once your payment is confirmed, you can go straight back to your{' '}
              {returnPathName(returnTo)} form.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}

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

      {pricing && shown && shown.length > 0 && (
        <SimpleGrid columns={{ base: 1, md: 2, xl: Math.min(4, shown.length) }} gap="5">
          {shown.map((tier) => {
            const row = tier.rows.find((candidate) => candidate.billingType === billingType)!;
            const purchase = { tierId: tier.id, isSubscription };
            return (
              <TierCard
                key={tier.id}
                tier={tier}
                billingType={billingType}
                currency={pricing.currency}
                estimate={readingEstimate(row.creditsIncluded, apps)}
                current={me?.subscription?.tierId === tier.id}
                action={
                  <TierAction
                    tierId={tier.id}
                    tierName={tier.name}
                    billingType={billingType}
                    price={formatPrice(row.price, pricing.currency)}
                    creditsIncluded={row.creditsIncluded}
                    popular={tier.popular}
                    subscription={me?.subscription ?? null}
                    busy={busyKey === purchaseKey(purchase)}
                    disabled={meLoading || (busyKey !== null && busyKey !== purchaseKey(purchase))}
                    onChoose={() => choose(purchase)}
                  />
                }
              />
            );
          })}
        </SimpleGrid>
      )}

      <Text fontSize="sm" color="fg.muted" textAlign="center">
        {pricing ? `All prices are in ${currencyLabel(pricing.currency)} and include tax. ` : ''}
        Payments are processed securely; you'll get a confirmation by e-mail.
      </Text>

      <PricingSignInDialog open={signInOpen} onDismiss={dismissSignIn} />
    </PageContainer>
  );
}
