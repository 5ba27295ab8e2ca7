import type { Me } from '@astra/contracts';
import { Badge, Link, Stack } from '@chakra-ui/react';
import { Coins } from 'lucide-react';
import { Link as RouterLink } from 'react-router';

export function creditsBadgeText(me: Pick<Me, 'remainingCredits' | 'subscription'>): string {
  const credits = `${me.remainingCredits} ${me.remainingCredits === 1 ? 'credit' : 'credits'}`;
  return me.subscription ? `${credits} (Subscriber)` : credits;
}

/**
 * The header's balance; it links to the credit history that explains it. `compact` (phones)
 * says the same in two short lines ('50 credits' over 'Subscriber'), to fit beside the menu.
 */
export function CreditsBadge({
  me,
  onNavigate,
  compact,
}: {
  me: Me;
  onNavigate?: () => void;
  compact?: boolean;
}) {
  const credits = `${me.remainingCredits} ${me.remainingCredits === 1 ? 'credit' : 'credits'}`;
  return (
    <Link asChild _hover={{ textDecoration: 'none' }} rounded="full" onClick={onNavigate}>
      <RouterLink
        to="/credits"
        title="View your credit history"
        aria-label={compact ? creditsBadgeText(me) : undefined}
      >
        <Badge
          size={compact ? 'md' : 'lg'}
          variant="subtle"
          colorPalette="brand"
          rounded="full"
          px="3"
          py="1"
          gap="1.5"
          fontVariantNumeric="tabular-nums"
        >
          <Coins aria-hidden size={16} />
          {compact ? (
            <Stack gap="0" lineHeight="1.1" aria-hidden>
              <span>{credits}</span>
              {me.subscription && <span>Subscriber</span>}
            </Stack>
          ) : (
            creditsBadgeText(me)
          )}
        </Badge>
      </RouterLink>
    </Link>
  );
}
