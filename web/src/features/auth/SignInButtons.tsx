import type { AuthProviders } from '@astra/contracts';
import { Button, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import type { SignInProvider } from './returnUrl';

/**
 * Which provider's sign-in is starting (its button shows 'Connecting...'). Coming back with the
 * browser's Back button restores the page from the cache; that un-busies the buttons.
 */
export function useConnectingProvider() {
  const [connecting, setConnecting] = useState<SignInProvider | null>(null);

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setConnecting(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return [connecting, setConnecting] as const;
}

interface SignInButtonsProps {
  providers: AuthProviders;
  connecting: SignInProvider | null;
  onStart: (provider: SignInProvider) => void;
}

/** 'Continue with Google' (or why it is missing) and, when offered, 'Continue with Apple'. */
export function SignInButtons({ providers, connecting, onStart }: SignInButtonsProps) {
  return (
    <>
      <Button
        size="lg"
        onClick={() => onStart('google')}
        loading={connecting === 'google'}
        loadingText="Connecting..."
        disabled={!providers.google || connecting !== null}
      >
        Continue with Google
      </Button>
      {!providers.google && (
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          Google sign-in is not available right now.
        </Text>
      )}
      {providers.apple && (
        <Button
          size="lg"
          variant="outline"
          onClick={() => onStart('apple')}
          loading={connecting === 'apple'}
          loadingText="Connecting..."
          disabled={connecting !== null}
        >
          Continue with Apple
        </Button>
      )}
    </>
  );
}
