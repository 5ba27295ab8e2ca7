import type { Me, SubscriptionView } from '@astra/contracts';
import { Badge, Heading, HStack, Progress, Text } from '@chakra-ui/react';
import { Surface } from '../../ui/Surface';

/** Spec §9: remaining / monthly credits as a percentage, clamped to 0-100. */
export function monthlyProgress(remaining: number, perMonth: number): number {
  if (perMonth <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((remaining / perMonth) * 100)));
}

const formatDay = (iso: string | null) =>
  iso
    ? new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : 'your next renewal date';

/** The subscriber's status; refresh and cancel controls arrive with the payments screens. */
export function SubscriptionCard({ me, subscription }: { me: Me; subscription: SubscriptionView }) {
  const cancelled = subscription.status === 'cancelled';
  const percent = monthlyProgress(me.remainingCredits, subscription.creditsPerMonth);
  return (
    <Surface as="section" tone="glow" aria-labelledby="subscription-heading">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading as="h2" size="md" id="subscription-heading">
          {subscription.tierName} Subscription
        </Heading>
        <Badge colorPalette={cancelled ? 'red' : 'green'} variant="solid" size="md">
          {cancelled ? 'Cancelled' : 'Active'}
        </Badge>
      </HStack>
      <Progress.Root value={percent} size="sm" colorPalette="brand">
        <HStack justify="space-between" mb="1">
          <Progress.Label>Credits remaining this month</Progress.Label>
          <Text fontSize="sm" fontWeight="medium">
            {me.remainingCredits} / {subscription.creditsPerMonth}
          </Text>
        </HStack>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {cancelled ? (
        <Text color="fg.muted" fontSize="sm">
          Your subscription is cancelled. Your access continues until{' '}
          {formatDay(subscription.nextRenewalDate)}.
        </Text>
      ) : subscription.needsRefresh ? (
        <Text color="fg.muted" fontSize="sm">
          Your monthly credits are ready to be refreshed.
        </Text>
      ) : (
        <Text color="fg.muted" fontSize="sm">
          Your credits refresh automatically on {formatDay(subscription.nextRenewalDate)}.
        </Text>
      )}
    </Surface>
  );
}
