import { Alert, Button, Container } from '@chakra-ui/react';
import { Outlet, useLocation } from 'react-router';
import { Redirect } from '../../app/drawing';
import { LoadingState } from '../../ui/LoadingState';
import { useCurrentUser } from './authApi';
import { signInUrlFor } from './signInParams';

/** Layout route for protected pages: 'Loading...', then the page or a redirect to /auth. */
export function RequireAuth() {
  const { me, isLoading, isError, refetch } = useCurrentUser();
  const location = useLocation();

  if (me) return <Outlet />;
  if (isLoading) return <LoadingState />;
  if (isError) {
    return (
      <Container maxW="xl" py="16">
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>We couldn't reach Astra</Alert.Title>
            <Alert.Description>Please check your connection and try again.</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => refetch()}>
            Try again
          </Button>
        </Alert.Root>
      </Container>
    );
  }
  const wanted = `${location.pathname}${location.search}${location.hash}`;
  return <Redirect to={signInUrlFor(wanted)} />;
}
