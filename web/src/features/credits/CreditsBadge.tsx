import type { Me } from '@astra/contracts';
import { Badge, Link } from '@chakra-ui/react';
import { Coins } from 'lucide-react';
import { Link as RouterLink } from 'react-router';

export function creditsBadgeText(me: Pick<Me, 'remainingCredits' | 'subscription'>): string {
  const credits = `${me.remainingCredits} ${me.remainingCredits === 1 ? 'credit' : 'credits'}`;
  return me.subscription ? `${credits} (Subscriber)` : credits;
}

/** The header's balance; it links to the credit history that explains it. */
export function CreditsBadge({ me, onNavigate }: { me: Me; onNavigate?: () => void }) {
  return (
    <Link asChild _hover={{ textDecoration: 'none' }} rounded="full" onClick={onNavigate}>
      <RouterLink to="/credits" title="View your credit history">
        <Badge
          size="lg"
          variant="subtle"
          colorPalette="brand"
          rounded="full"
          px="3"
          py="1"
          gap="1.5"
          fontVariantNumeric="tabular-nums"
        >
          <Coins aria-hidden size={16} />
          {creditsBadgeText(me)}
        </Badge>
      </RouterLink>
    </Link>
  );
}
