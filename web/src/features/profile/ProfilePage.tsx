import { formatLongDate, type Me } from '@astra/contracts';
import {
  Alert,
  Button,
  DataList,
  Field,
  Heading,
  HStack,
  Input,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Pencil } from 'lucide-react';
import { type SyntheticEvent, useState } from 'react';
import { describeApiError, fieldErrorSummary } from '../../app/apiErrors';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useCurrentUser } from '../auth/authApi';
import { AvatarSection } from './AvatarSection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { DownloadDataSection } from './DownloadDataSection';
import { ProfileFormFields } from './ProfileFormFields';
import { useUpdateProfileMutation } from './profileApi';
import { draftFromMe, draftIsSavable, draftToUpdate, type ProfileDraft } from './profileDraft';

const EMAIL_NOTE = 'Email cannot be changed. Contact support if needed.';

export default function ProfilePage() {
  const { me, isError, refetch } = useCurrentUser();

  return (
    <PageContainer maxW="3xl">
      <PageTitle>Profile Settings</PageTitle>
      <BackLink />
      <Heading as="h1" textStyle="pageTitle">
        Profile Settings
      </Heading>
      {me ? (
        <>
          <Surface as="section" aria-labelledby="picture-heading">
            <Heading as="h2" size="md" id="picture-heading">
              Profile Picture
            </Heading>
            <AvatarSection me={me} />
          </Surface>
          <ProfileDetails me={me} />
          <DownloadDataSection />
          <DeleteAccountSection />
        </>
      ) : (
        isError && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>Failed to load profile data</Alert.Title>
            <Button size="sm" variant="outline" onClick={() => refetch()}>
              Try again
            </Button>
          </Alert.Root>
        )
      )}
    </PageContainer>
  );
}

/** Personal and birth information: read-only until 'Edit Profile', then a form. */
function ProfileDetails({ me }: { me: Me }) {
  const [draft, setDraft] = useState<ProfileDraft | null>(null);
  const [updateProfile, { isLoading: saving }] = useUpdateProfileMutation();

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (!draft) return;
    try {
      await updateProfile(draftToUpdate(draft)).unwrap();
      notifySuccess('Profile updated successfully!');
      setDraft(null);
    } catch (failure) {
      notifyError('Failed to save profile data', fieldErrorSummary(describeApiError(failure)));
    }
  };

  if (!draft) {
    return (
      <Surface as="section" aria-labelledby="details-heading" gap="5">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Heading as="h2" size="md" id="details-heading">
            Personal Information
          </Heading>
          <Button size="sm" onClick={() => setDraft(draftFromMe(me))}>
            <Pencil aria-hidden />
            Edit Profile
          </Button>
        </HStack>
        <ReadOnlyList
          items={[
            ['First name', me.firstName],
            ['Last name', me.lastName],
            ['Email', me.email],
          ]}
        />
        <Text fontSize="sm" color="fg.muted">
          {EMAIL_NOTE}
        </Text>
        <Separator />
        <Heading as="h2" size="md">
          Birth Information
        </Heading>
        <ReadOnlyList
          items={[
            ['Birth date', me.birthDate ? formatLongDate(me.birthDate) : null],
            ['Birth time', me.birthTimeUnknown ? 'Unknown' : me.birthTime],
            ['Birth city', me.birthCity],
            ['Birth country', me.birthCountry],
          ]}
        />
        {me.birthCity && !me.birthPlace && (
          <Text fontSize="sm" color="fg.warning" role="status">
            We could not find your birth city in our place list, so readings cannot use it yet. Edit
            your details and choose it from the suggestions.
          </Text>
        )}
      </Surface>
    );
  }

  return (
    <Surface as="form" aria-labelledby="details-heading" onSubmit={save} gap="5">
      <Heading as="h2" size="md" id="details-heading">
        Edit Your Details
      </Heading>
      <ProfileFormFields
        draft={draft}
        onChange={setDraft}
        disabled={saving}
        savedCityNotFound={me.birthPlace ? null : me.birthCity}
        afterNames={
          <Field.Root readOnly gridColumn={{ md: 'span 2' }}>
            <Field.Label>Email</Field.Label>
            <Input value={me.email} readOnly name="email" />
            <Field.HelperText>{EMAIL_NOTE}</Field.HelperText>
          </Field.Root>
        }
      />
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
        <Button type="submit" loading={saving} disabled={!draftIsSavable(draft)}>
          Save Changes
        </Button>
        <Button variant="outline" onClick={() => setDraft(null)} disabled={saving}>
          Cancel
        </Button>
      </Stack>
    </Surface>
  );
}

function ReadOnlyList({ items }: { items: [label: string, value: string | null][] }) {
  return (
    <DataList.Root orientation="horizontal" size="md">
      {items.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel color="fg.muted" minW="32">
            {label}
          </DataList.ItemLabel>
          <DataList.ItemValue color={value ? 'fg' : 'fg.muted'} wordBreak="break-word">
            {value ?? 'Not set'}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
