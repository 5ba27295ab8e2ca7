import type { DevLoginRequest, Me } from '@astra/contracts';
import { Alert, Badge, Button, Field, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { type SyntheticEvent, useId, useState } from 'react';
import { describeApiError, fieldErrorSummary } from '../../app/apiErrors';
import { useDevLoginMutation } from './authApi';
import { AUTH_FAILED, signInErrorMessage } from './authMessages';

interface DevSignInFormProps {
  /** Called before the request, so the page does not treat the new session as a visit. */
  onStart?: () => void;
  onSignedIn: (me: Me) => void;
  onFailed?: () => void;
}

/** Development and test sign-in (POST /api/auth/dev-login); shown only when the server offers it. */
export function DevSignInForm({ onStart, onSignedIn, onFailed }: DevSignInFormProps) {
  const [devLogin, { isLoading }] = useDevLoginMutation();
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setError(null);
    const body: DevLoginRequest = { email: email.trim() };
    if (fullName.trim()) body.fullName = fullName.trim();
    onStart?.();
    try {
      onSignedIn(await devLogin(body).unwrap());
    } catch (failure) {
      onFailed?.();
      const info = describeApiError(failure);
      if (info.status === 'network') setError(signInErrorMessage('network'));
      else if (info.status === 429) setError(signInErrorMessage('too many'));
      else setError(fieldErrorSummary(info) ?? AUTH_FAILED);
    }
  };

  return (
    <Stack
      as="form"
      aria-labelledby={headingId}
      onSubmit={submit}
      gap="3"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border.emphasized"
      rounded="lg"
      p="4"
    >
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" size="sm" id={headingId}>
          Developer sign-in
        </Heading>
        <Badge colorPalette="orange" variant="subtle">
          Development only
        </Badge>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        Signs in without an identity provider. This form never appears in production.
      </Text>
      <Field.Root required>
        <Field.Label>
          E-mail <Field.RequiredIndicator />
        </Field.Label>
        <Input
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label>Full name (optional)</Field.Label>
        <Input
          name="fullName"
          autoComplete="name"
          value={fullName}
          onChange={(event) => setFullName(event.target.value)}
        />
      </Field.Root>
      {error && (
        <Alert.Root status="error" size="sm">
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      <Button type="submit" variant="outline" loading={isLoading} loadingText="Signing in...">
        Sign in
      </Button>
    </Stack>
  );
}
