import { type BillingType, readingMessages, subscriptionMessages } from '@astra/contracts';
import { Alert, Button, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { useGetMeQuery } from '../auth/authApi';
import { useGetCatalogQuery } from '../dashboard/appsApi';
import { welcomeOffer } from '../landing/welcomeOffer';
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

/**
 * How the balance is kept, in plain words, below the price cards: a plan's renewal must never be
 * read as a threat to credits bought or given.
 */
export const CREDIT_RULES = [
  'Credits from a one-time pack, free credits and gift credits never expire.',
  "A monthly plan's unused credits carry over for one month; anything beyond one month's worth ends at the renewal.",
  'Readings use your plan credits first, then free and gift credits, then the credits you bought (oldest first), so the ones that never expire last longest.',
];

/** Spec §2 pricing: plans by billing period, bought through checkout once signed in. */
export default function PricingPage() {
  const { data: me, isLoading: meLoading } = useGetMeQuery();
  const { data: pricing, isLoading, isError, refetch } = useGetPricingQuery();
  const [params] = useSearchParams();
  const returnTo = params.get(RETURN_PARAM);
  const returning = isReturnPath(returnTo);
  const { data: catalog } = useGetCatalogQuery();
  const apps = catalog?.items;
  const offer = welcomeOffer(catalog?.welcomeCredits, apps);
  const [billingType, setBillingType] = useState<BillingType>('subscription');
  // A purchase waiting from before sign-in shows its own billing period; read from session
  // storage after the first render, which must match the page drawn on the server as Monthly.
  useLayoutEffect(() => {
    if (readPendingPurchase()?.isSubscription === false) setBillingType('one_time');
  }, []);
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
        {/* A visitor's line is held open (while the session and the catalogue
            load), so that the offer arriving does not push the plans down (layout shift). */}
        {!me && (meLoading || !catalog || offer) && (
          <Text fontSize="sm" maxW="3xl" minH={{ base: '3lh', md: '1lh' }}>
            {!meLoading && offer && <>New here? Your account starts with {offer}.</>}
          </Text>
        )}
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

      <Stack as="section" aria-labelledby="credit-rules-heading" gap="2" maxW="3xl" mx="auto">
        <Heading as="h2" size="md" id="credit-rules-heading">
          How credits work
        </Heading>
        <Stack as="ul" gap="1" ps="5" fontSize="sm" listStyleType="disc">
          {CREDIT_RULES.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </Stack>
      </Stack>

      <Text fontSize="sm" color="fg.muted" textAlign="center">
        {pricing ? `All prices are in ${currencyLabel(pricing.currency)} and include tax. ` : ''}
        Payments are processed securely; you'll get a confirmation by e-mail.
      </Text>

      <PricingSignInDialog open={signInOpen} onDismiss={dismissSignIn} />
    </PageContainer>
  );
}
