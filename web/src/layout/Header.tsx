import { Box, Button, Container, HStack, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { isProcessingSignIn } from '../features/auth/signInParams';
import { useSessionRefresh } from '../features/auth/useSessionRefresh';
import { CreditsBadge } from '../features/credits/CreditsBadge';
import { useCreditBalanceSync } from '../features/credits/useCreditBalanceSync';
import { ColorModeToggle } from '../ui/colorMode';
import { LinkButton } from '../ui/LinkButton';
import { Logo } from './Logo';
import { MobileNavButton } from './MobileNavButton';

const ProfileMenu = lazy(() => import('./ProfileMenu'));
// Subscribers only: the status re-check and the 'Credits Available!' offer.
const SubscriptionWatcher = lazy(() => import('../features/subscription/SubscriptionWatcher'));

export function Header() {
  const { me, isLoading } = useSessionRefresh();
  const location = useLocation();
  useCreditBalanceSync(me?.remainingCredits);
  const processing = isProcessingSignIn(location.search, location.hash);

  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/90"
      backdropFilter="blur(8px)"
      borderBottomWidth="1px"
      borderColor="border"
    >
      <Container maxW="6xl" px={{ base: '4', md: '8' }}>
        <HStack as="nav" aria-label="Main" h="16" justify="space-between" gap="3">
          <Logo />
          {processing ? (
            <Text role="status" fontSize="sm" color="fg.muted">
              Processing sign in...
            </Text>
          ) : (
            <HStack gap="2">
              {!isLoading && (
                <HStack gap="2" hideBelow="md">
                  {me ? (
                    <>
                      <CreditsBadge me={me} />
                      <LinkButton to="/library" variant="ghost" size="sm">
                        Library
                      </LinkButton>
                      <LinkButton to="/pricing" size="sm">
                        Buy Credits
                      </LinkButton>
                      <Suspense
                        fallback={
                          <Button variant="outline" size="sm" disabled>
                            Profile
                          </Button>
                        }
                      >
                        <ProfileMenu />
                      </Suspense>
                    </>
                  ) : (
                    <>
                      <LinkButton to="/auth" variant="ghost" size="sm">
                        Sign In
                      </LinkButton>
                      <LinkButton to="/auth" size="sm">
                        Get Started
                      </LinkButton>
                    </>
                  )}
                </HStack>
              )}
              <ColorModeToggle />
              {!isLoading && (
                <HStack gap="2" hideFrom="md">
                  {/* On a phone too, the balance is in sight, not only inside the menu. */}
                  {me && <CreditsBadge me={me} compact />}
                  <MobileNavButton me={me} />
                </HStack>
              )}
            </HStack>
          )}
        </HStack>
      </Container>
      {me?.subscription && (
        <Suspense fallback={null}>
          <SubscriptionWatcher me={me} />
        </Suspense>
      )}
    </Box>
  );
}
