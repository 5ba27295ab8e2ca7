import type { Me, SubscriptionView } from '@astra/contracts';
import { Badge, Button, Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { LinkButton } from '../../ui/LinkButton';
import { Surface } from '../../ui/Surface';
import { CancelSubscriptionDialog } from '../subscription/CancelSubscriptionDialog';
import { formatRenewalDate } from '../subscription/renewalDate';
import { keptCredits, renewalKeepsText } from '../subscription/renewalKeeps';
import { useRefreshMonthlyCredits } from '../subscription/useRefreshMonthlyCredits';

/**
 * Spec §9: remaining / monthly credits as a percentage, clamped to 0-100. Only the plan's own
 * credits count: purchased and free credits are no part of the month.
 */
export function monthlyProgress(remaining: number, perMonth: number): number {
  if (perMonth <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((remaining / perMonth) * 100)));
}

/** The subscriber's plan: credits this month, renewal, and the refresh and cancel actions. */
export function SubscriptionCard({ me, subscription }: { me: Me; subscription: SubscriptionView }) {
  const { refresh, isRefreshing } = useRefreshMonthlyCredits();
  const active = subscription.status === 'active';
  const planCredits = me.creditLots.subscription;
  const percent = monthlyProgress(planCredits, subscription.creditsPerMonth);
  const renewal = formatRenewalDate(subscription.nextRenewalDate);
  const { keeps, forfeits } = renewalKeepsText(subscription, me.creditLots);

  return (
    <Surface as="section" tone="glow" aria-labelledby="subscription-heading">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading as="h2" size="md" id="subscription-heading">
          {subscription.tierName} Subscription
        </Heading>
        <Badge colorPalette={active ? 'green' : 'red'} variant="solid" size="md">
          {active ? 'Active' : 'Cancelled'}
        </Badge>
      </HStack>
      <Progress.Root value={percent} size="sm" colorPalette="brand">
        <HStack justify="space-between" mb="1">
          <Progress.Label>Plan credits remaining this month</Progress.Label>
          <Text fontSize="sm" fontWeight="medium" fontVariantNumeric="tabular-nums">
            {planCredits} / {subscription.creditsPerMonth}
          </Text>
        </HStack>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {renewal && (
        <Text fontSize="sm">
          {active ? 'Next renewal' : 'Access until'}:{' '}
          <Text as="span" fontWeight="semibold">
            {renewal}
          </Text>
        </Text>
      )}

      {!active ? (
        <Stack gap="3" align="flex-start">
          <Text color="fg.muted" fontSize="sm">
            Your subscription is cancelled and will not renew. Your access continues until{' '}
            {renewal ?? 'your renewal date'}. Your {keptCredits(me.creditLots)} purchased and free
            credits never expire.
          </Text>
          <LinkButton to="/pricing" size="sm" variant="outline">
            View Plans
          </LinkButton>
        </Stack>
      ) : (
        <Stack gap="3">
          {subscription.needsRefresh ? (
            <Text color="fg.muted" fontSize="sm">
              This month's {subscription.creditsPerMonth} credits are ready for you.
            </Text>
          ) : (
            <Text color="fg.muted" fontSize="sm">
              Your credits refresh automatically on {renewal ?? 'your next renewal date'}.
            </Text>
          )}
          {/* What the renewal keeps, so a renewal is never read as a threat to bought credits. */}
          <Text fontSize="sm">
            At your next renewal: {keeps}
            {forfeits && ` ${forfeits}`}
          </Text>
          <HStack gap="3" wrap="wrap">
            {subscription.needsRefresh && (
              <Button
                size="sm"
                onClick={() => refresh(active)}
                loading={isRefreshing}
                loadingText="Refreshing..."
              >
                <RefreshCw aria-hidden />
                Refresh Monthly Credits
              </Button>
            )}
            <CancelSubscriptionDialog
              tierName={subscription.tierName}
              nextRenewalDate={subscription.nextRenewalDate}
              active={active}
            />
          </HStack>
        </Stack>
      )}
    </Surface>
  );
}
