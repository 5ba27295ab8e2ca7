import type { ReadingKind } from '@astra/contracts';
import { Alert, HStack, Text } from '@chakra-ui/react';
import { Coins } from 'lucide-react';
import { useLocation } from 'react-router';
import { LinkButton } from '../../../ui/LinkButton';
import { useCurrentUser } from '../../auth/authApi';
import { pricingPathReturningTo } from '../../pricing/purchaseReturn';
import { useReadingCost } from './useReadingCost';

const credits = (count: number) => `${count} ${count === 1 ? 'credit' : 'credits'}`;

/**
 * The reading's cost next to the balance, before anything is typed: a balance too low is said
 * up front, with the way to buy credits and come back to this form.
 */
export function CreditCostNotice({ slug }: { slug: ReadingKind }) {
  const { me } = useCurrentUser();
  const cost = useReadingCost(slug);
  const { pathname } = useLocation();
  if (!me) return null;

  if (me.remainingCredits < cost) {
    return (
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content gap="2">
          <Alert.Title>Not enough credits for this reading</Alert.Title>
          <Alert.Description>
            This reading costs {credits(cost)} and your balance is {credits(me.remainingCredits)}.
          </Alert.Description>
          <LinkButton
            to={pricingPathReturningTo(pathname)}
            size="sm"
            alignSelf="flex-start"
            colorPalette="brand"
          >
            Buy credits for this reading
          </LinkButton>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <HStack gap="2" fontSize="sm" color="fg.muted">
      <Coins aria-hidden size={16} />
      <Text>
        This reading costs {credits(cost)}. Your balance: {credits(me.remainingCredits)}.
      </Text>
    </HStack>
  );
}
