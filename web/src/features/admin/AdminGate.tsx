import { adminMessages } from '@astra/contracts';
import { Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeApiError } from '../../app/apiErrors';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useUnlockAdminMutation } from './adminApi';

/** The admin password prompt (spec §4 "Admin access"): a wrong password clears the field. */
export function AdminGate() {
  const [password, setPassword] = useState('');
  const [unlock, { isLoading }] = useUnlockAdminMutation();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      input.current?.focus();
      return;
    }
    try {
      const answer = await unlock(password).unwrap();
      notifySuccess(answer.message || adminMessages.accessGranted);
    } catch (error) {
      const info = describeApiError(error);
      setPassword('');
      input.current?.focus();
      if (info.code === 'incorrect_password') {
        notifyError(adminMessages.incorrectPassword);
      } else if (info.code === 'admin_required') {
        notifyError(adminMessages.accessDenied);
        navigate('/app', { replace: true });
      } else if (info.code === 'rate_limited' || info.code === 'admin_password_not_configured') {
        notifyError(adminMessages.verificationFailed, info.message);
      } else {
        notifyError(adminMessages.verificationFailed);
      }
    }
  };

  return (
    <PageContainer maxW="md" py={{ base: '10', md: '16' }}>
      <PageTitle>Admin Panel</PageTitle>
      <Surface as="form" onSubmit={submit} gap="5" aria-labelledby="admin-gate-heading">
        <Stack gap="2" align="center" textAlign="center">
          <ShieldCheck size={32} aria-hidden />
          <Heading as="h1" id="admin-gate-heading" textStyle="sectionTitle">
            Admin Access
          </Heading>
          <Text color="fg.muted">Enter the admin password to open the admin panel.</Text>
        </Stack>
        <Field.Root required>
          <Field.Label>Admin password</Field.Label>
          <Input
            ref={input}
            type="password"
            name="admin-password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            maxLength={1000}
            autoFocus
          />
        </Field.Root>
        <Button type="submit" loading={isLoading} loadingText="Verifying..." w="full">
          Unlock Admin Panel
        </Button>
      </Surface>
    </PageContainer>
  );
}
