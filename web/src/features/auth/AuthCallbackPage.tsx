import { Center, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LinkButton } from '../../ui/LinkButton';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { useGetMeQuery } from './authApi';
import { callbackErrorMessage, SIGN_IN_TIMEOUT } from './authMessages';
import { returnUrlFrom } from './returnUrl';
import { signInDestination } from './signInDestination';
import { signInUrlFor } from './signInParams';
import { useVisibleElapsed } from './useVisibleElapsed';

/** Spec §9: give up after 15 s of visible waiting. */
const SIGN_IN_TIMEOUT_MS = 15_000;
const SESSION_POLL_MS = 2_000;

/** Where identity providers send people back: wait for the session, then route them on. */
export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const returnUrl = returnUrlFrom(location.search);
  const error = params.get('error');

  if (error) {
    return (
      <CallbackError
        message={callbackErrorMessage(error, params.get('error_description'))}
        returnUrl={returnUrl}
      />
    );
  }
  return <CompletingSignIn returnUrl={returnUrl} />;
}

function CompletingSignIn({ returnUrl }: { returnUrl: string }) {
  const navigate = useNavigate();
  const {
    data: me,
    isFetching,
    refetch,
  } = useGetMeQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const waiting = !me;
  const elapsed = useVisibleElapsed(waiting);
  const timedOut = waiting && elapsed >= SIGN_IN_TIMEOUT_MS;

  useEffect(() => {
    if (me) navigate(signInDestination(me, returnUrl), { replace: true });
  }, [me, navigate, returnUrl]);

  // The session cookie may land a moment after the redirect; ask again until it does.
  useEffect(() => {
    if (!waiting || timedOut || isFetching || elapsed === 0) return;
    if (elapsed % SESSION_POLL_MS === 0) refetch();
  }, [elapsed, isFetching, refetch, timedOut, waiting]);

  if (timedOut) return <CallbackError message={SIGN_IN_TIMEOUT} returnUrl={returnUrl} />;

  return (
    <Center px="4" py="20">
      <PageTitle>Completing Sign In…</PageTitle>
      <Stack role="status" align="center" textAlign="center" gap="4">
        <Spinner size="xl" color="brand.fg" aria-hidden />
        <Heading as="h1" textStyle="sectionTitle">
          Completing Sign In…
        </Heading>
        <Text color="fg.muted">Please wait while we secure your session.</Text>
      </Stack>
    </Center>
  );
}

function CallbackError({ message, returnUrl }: { message: string; returnUrl: string }) {
  return (
    <Center px="4" py="16">
      <PageTitle>Sign In Error</PageTitle>
      <Surface w="full" maxW="md" alignItems="center" textAlign="center" gap="4">
        <TriangleAlert aria-hidden size={32} color="var(--chakra-colors-fg-error)" />
        <Heading as="h1" textStyle="sectionTitle">
          Sign In Error
        </Heading>
        <Text role="alert">{message}</Text>
        <LinkButton to={signInUrlFor(returnUrl)} replace>
          Back to Sign In
        </LinkButton>
      </Surface>
    </Center>
  );
}
