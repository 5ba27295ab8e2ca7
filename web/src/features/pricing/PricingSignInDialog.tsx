import { Alert, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FALLBACK_AUTH_PROVIDERS, useGetAuthProvidersQuery } from '../auth/authApi';
import { DevSignInForm } from '../auth/DevSignInForm';
import { providerSignInUrl, type SignInProvider } from '../auth/returnUrl';
import { SignInButtons, useConnectingProvider } from '../auth/SignInButtons';

/** Where the identity provider brings the visitor back: the pricing page, to resume. */
const RETURN_URL = '/pricing';

const PROVIDER_FAILED: Record<SignInProvider, string> = {
  google: 'Failed to sign in with Google',
  apple: 'Failed to sign in with Apple',
};

interface PricingSignInDialogProps {
  open: boolean;
  onDismiss: () => void;
}

/**
 * Spec §2: buying needs an account. Google (and Apple when offered) leave for the provider and
 * come back to /pricing; the developer sign-in stays here. Either way the chosen plan resumes
 * (`PendingPurchaseResume`).
 */
export function PricingSignInDialog({ open, onDismiss }: PricingSignInDialogProps) {
  const { data: providers = FALLBACK_AUTH_PROVIDERS } = useGetAuthProvidersQuery(undefined, {
    skip: !open,
  });
  const [connecting, setConnecting] = useConnectingProvider();
  const [error, setError] = useState<string | null>(null);

  const startProviderSignIn = (provider: SignInProvider) => {
    setError(null);
    setConnecting(provider);
    try {
      window.location.assign(providerSignInUrl(provider, RETURN_URL));
    } catch (failure) {
      console.error('Sign-in could not start', failure);
      setConnecting(null);
      setError(
        failure instanceof Error && failure.message ? failure.message : PROVIDER_FAILED[provider],
      );
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (!event.open) onDismiss();
      }}
      placement="center"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Sign in to continue</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text color="fg.muted">
                  Sign in to complete your purchase. We'll bring you right back to your chosen plan.
                </Text>
                {error && (
                  <Alert.Root status="error" size="sm">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>Sign in failed</Alert.Title>
                      <Alert.Description>{error}</Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                )}
                <SignInButtons
                  providers={providers}
                  connecting={connecting}
                  onStart={startProviderSignIn}
                />
                {providers.dev && <DevSignInForm onSignedIn={() => undefined} />}
              </Stack>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
