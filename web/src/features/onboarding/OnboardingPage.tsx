import type { Me } from '@astra/contracts';
import { Alert, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { type SyntheticEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { describeApiError, fieldErrorSummary } from '../../app/apiErrors';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useCurrentUser } from '../auth/authApi';
import { hasOnboardingBirthData } from '../profile/birthData';
import { ProfileFormFields } from '../profile/ProfileFormFields';
import { useUpdateProfileMutation } from '../profile/profileApi';
import { draftFromMe, draftIsSavable, draftToUpdate } from '../profile/profileDraft';

export default function OnboardingPage() {
  const { me } = useCurrentUser();
  if (!me) return null; // the protected route renders this page only for a signed-in user
  return <OnboardingForm me={me} />;
}

function OnboardingForm({ me }: { me: Me }) {
  const navigate = useNavigate();
  // Decided once, on arrival: saving completes the profile but must not skip the toast.
  const [alreadyComplete] = useState(() => hasOnboardingBirthData(me));
  const [prefilled] = useState(() => Boolean(me.firstName || me.lastName));
  const [draft, setDraft] = useState(() => draftFromMe(me));
  const [updateProfile, { isLoading: saving }] = useUpdateProfileMutation();

  if (alreadyComplete) return <Navigate to="/app" replace />;

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    try {
      await updateProfile(draftToUpdate(draft)).unwrap();
    } catch (failure) {
      const info = describeApiError(failure);
      notifyError(
        info.status === 401
          ? 'You must be logged in to complete your profile'
          : 'Failed to save your profile data',
        info.status === 401 ? undefined : fieldErrorSummary(info),
      );
      return;
    }
    notifySuccess('Welcome!', 'Your profile has been created successfully!');
    // A plan chosen before signing in resumes from there (PendingPurchaseResume).
    navigate('/app', { replace: true });
  };

  return (
    <PageContainer maxW="3xl">
      <PageTitle>Welcome to Your Journey</PageTitle>
      <Stack gap="2">
        <Heading as="h1" textStyle="pageTitle">
          Welcome to Your Journey
        </Heading>
        <Text color="fg.muted">
          Tell us a little about yourself. Your birth date, time and place let Astra read your chart
          precisely. Every field is optional, and you can change them any time in your profile.
        </Text>
      </Stack>
      {prefilled && (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>We pre-filled what we could</Alert.Title>
            <Alert.Description>
              Your name was pre-filled from your sign-in account. Please check it.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Surface as="form" onSubmit={save} gap="6" aria-label="Your birth profile">
        <ProfileFormFields draft={draft} onChange={setDraft} disabled={saving} />
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
          <Button type="submit" loading={saving} disabled={!draftIsSavable(draft)}>
            Save and Continue
          </Button>
          <Button variant="ghost" onClick={() => navigate('/app')} disabled={saving}>
            Skip for Now
          </Button>
        </Stack>
      </Surface>
    </PageContainer>
  );
}
