import type { BillingType, PricingTier } from '@astra/contracts';
import { Badge, Heading, HStack, List, Text } from '@chakra-ui/react';
import { Check } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Surface } from '../../ui/Surface';
import { creditsLine, formatPrice } from './priceFormat';

/** Spec §9: a card lists at most five features. */
const MAX_FEATURES = 5;

interface TierCardProps {
  tier: PricingTier;
  billingType: BillingType;
  /** The one configured currency (GET /api/pricing). */
  currency: string;
  /** '≈ 2 birth charts, …' from the live reading costs, when they are known. */
  estimate: string | null;
  /** The signed-in subscriber's own tier. */
  current: boolean;
  /** The card's button: buy, subscribe, 'Your plan' or 'Change plan' (see TierAction). */
  action: ReactNode;
}

/** One plan: its price for the chosen billing period, its credits and what they buy. */
export function TierCard({
  tier,
  billingType,
  currency,
  estimate,
  current,
  action,
}: TierCardProps) {
  const headingId = useId();
  const row = tier.rows.find((candidate) => candidate.billingType === billingType);
  if (!row) return null;
  const subscription = billingType === 'subscription';
  const yourPlan = current && subscription;

  return (
    <Surface
      as="article"
      aria-labelledby={headingId}
      tone={tier.popular ? 'glow' : 'plain'}
      h="full"
      gap="4"
      position="relative"
    >
      {tier.popular && (
        <Badge
          colorPalette="brand"
          variant="solid"
          textStyle="eyebrow"
          position="absolute"
          top="0"
          insetStart="50%"
          transform="translate(-50%, -50%)"
          px="3"
          py="1"
          rounded="full"
          whiteSpace="nowrap"
        >
          MOST POPULAR
        </Badge>
      )}
      <HStack justify="space-between" align="center" gap="2" wrap="wrap">
        <Heading as="h2" size="xl" fontFamily="heading" id={headingId}>
          {tier.name}
        </Heading>
        {yourPlan && (
          <Badge colorPalette="green" variant="subtle">
            Your plan
          </Badge>
        )}
      </HStack>
      <Text color="fg.muted">{tier.description}</Text>
      <HStack align="baseline" gap="1">
        <Text as="span" fontSize="4xl" fontWeight="bold" lineHeight="1">
          {formatPrice(row.price, currency)}
        </Text>
        {subscription && (
          <Text as="span" color="fg.muted">
            /month
          </Text>
        )}
      </HStack>
      <Text fontWeight="semibold" color="starlight.fg">
        {creditsLine(row.creditsIncluded, billingType)}
      </Text>
      {estimate && (
        <Text fontSize="sm" color="fg.muted">
          {estimate}
        </Text>
      )}
      {/* The features of this way of buying: a pack does not promise what a plan gives. */}
      {row.features.length > 0 && (
        <List.Root gap="2" variant="plain" fontSize="sm" flex="1">
          {row.features.slice(0, MAX_FEATURES).map((feature) => (
            <List.Item key={feature} alignItems="flex-start">
              <List.Indicator asChild color="fg.success" mt="0.5">
                <Check aria-hidden size={16} />
              </List.Indicator>
              {feature}
            </List.Item>
          ))}
        </List.Root>
      )}
      {action}
    </Surface>
  );
}
