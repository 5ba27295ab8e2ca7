import type { Me } from '@astra/contracts';
import { Center, Heading, Stack, Text } from '@chakra-ui/react';
import { MoonStar } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoadingState } from '../../ui/LoadingState';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { FALLBACK_AUTH_PROVIDERS, useCurrentUser, useGetAuthProvidersQuery } from './authApi';
import { DevSignInForm } from './DevSignInForm';
import { providerSignInUrl, returnUrlFrom, type SignInProvider } from './returnUrl';
import { SignInButtons, useConnectingProvider } from './SignInButtons';
import { useSessionEndedArrival } from './sessionEnd';
import { signInDestination } from './signInDestination';

export default function AuthPage() {
  const { me, isLoading: meLoading } = useCurrentUser();
  const { data: providers = FALLBACK_AUTH_PROVIDERS, isLoading: providersLoading } =
    useGetAuthProvidersQuery();
  const location = useLocation();
  const navigate = useNavigate();
  const returnUrl = returnUrlFrom(location.search);
  // Just signed out: the cached user is stale until the cache reset lands; show the sign-in.
  const sessionEnded = useSessionEndedArrival();
  const [connecting, setConnecting] = useConnectingProvider();
  // A developer sign-in in flight owns the navigation; the "already signed in" rule waits.
  const [devSignInActive, setDevSignInActive] = useState(false);

  if (meLoading || providersLoading) return <LoadingState />;

  if (me && !devSignInActive && !sessionEnded) {
    // Already signed in: where a sign-in would have gone, the returnUrl included.
    const destination = signInDestination(me, returnUrl);
    return (
      <>
        <LoadingState
          label={destination === '/app' ? 'Redirecting to your dashboard...' : 'Redirecting...'}
        />
        <Navigate to={destination} replace />
      </>
    );
  }

  const startProviderSignIn = (provider: SignInProvider) => {
    setConnecting(provider);
    window.location.assign(providerSignInUrl(provider, returnUrl));
  };

  const finishDevSignIn = (signedIn: Me) => {
    navigate(signInDestination(signedIn, returnUrl), { replace: true });
  };

  return (
    <Center px="4" py={{ base: '10', md: '16' }}>
      <PageTitle>Enter the Cosmos</PageTitle>
      <Surface tone="glow" w="full" maxW="md" gap="6" p={{ base: '6', md: '8' }}>
        <Stack align="center" textAlign="center" gap="2">
          <MoonStar aria-hidden size={36} color="var(--chakra-colors-starlight-fg)" />
          <Heading as="h1" textStyle="pageTitle">
            Enter the Cosmos
          </Heading>
          <Text color="fg.muted">
            Sign in to continue your journey: your readings, your library and your credits wait for
            you.
          </Text>
        </Stack>

        <Stack gap="3">
          <SignInButtons
            providers={providers}
            connecting={connecting}
            onStart={startProviderSignIn}
          />
        </Stack>

        {providers.dev && (
          <DevSignInForm
            onStart={() => setDevSignInActive(true)}
            onSignedIn={finishDevSignIn}
            onFailed={() => setDevSignInActive(false)}
          />
        )}

        <Text fontSize="sm" color="fg.muted" textAlign="center">
          By continuing you agree to our{' '}
          <TextLink to="/terms-of-service">Terms of Service</TextLink> and{' '}
          <TextLink to="/privacy-policy">Privacy Policy</TextLink>.
        </Text>
      </Surface>
    </Center>
  );
}
