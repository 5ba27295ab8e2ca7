import { AVATAR_MAX_BYTES, avatarContentTypes, type Me } from '@astra/contracts';
import { Avatar, Button, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { ImageUp, Trash2 } from 'lucide-react';
import { type ChangeEvent, useRef, useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useRemoveAvatarMutation, useUploadAvatarMutation } from './profileApi';

const WRONG_TYPE = 'Please choose an image file: PNG, JPEG, GIF or WebP.';
const TOO_LARGE = 'That image is larger than 2 MB. Please choose a smaller one.';

/** Checked before upload so people learn at once; the server checks the same rules again. */
export function avatarFileProblem(file: File): string | null {
  if (!(avatarContentTypes as readonly string[]).includes(file.type)) return WRONG_TYPE;
  if (file.size > AVATAR_MAX_BYTES) return TOO_LARGE;
  return null;
}

export function displayName(me: Me): string {
  const name = [me.firstName, me.lastName].filter(Boolean).join(' ');
  return name || me.fullName || me.email;
}

export function AvatarSection({ me }: { me: Me }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploadAvatar, { isLoading: uploading }] = useUploadAvatarMutation();
  const [removeAvatar, { isLoading: removing }] = useRemoveAvatarMutation();

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again should fire change again
    if (!file) return;
    const fileProblem = avatarFileProblem(file);
    setProblem(fileProblem);
    if (fileProblem) return;
    try {
      await uploadAvatar(file).unwrap();
      notifySuccess('Profile picture updated');
    } catch (failure) {
      const info = describeApiError(failure);
      const message =
        info.status === 413 ? TOO_LARGE : info.status === 415 ? WRONG_TYPE : info.message;
      setProblem(message ?? 'Failed to upload your picture. Please try again.');
    }
  };

  const onRemove = async () => {
    setProblem(null);
    try {
      await removeAvatar().unwrap();
      notifySuccess('Profile picture removed');
    } catch (failure) {
      notifyError('Failed to remove your picture', describeApiError(failure).message);
    }
  };

  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="5" align={{ sm: 'center' }}>
      <Avatar.Root size="2xl" colorPalette="brand">
        <Avatar.Fallback name={displayName(me)} />
        {me.avatarUrl && <Avatar.Image src={me.avatarUrl} alt="Your profile picture" />}
      </Avatar.Root>
      <Stack gap="2">
        <HStack gap="2" wrap="wrap">
          <VisuallyHidden asChild>
            <input
              ref={inputRef}
              type="file"
              accept={avatarContentTypes.join(',')}
              aria-label="Upload profile picture"
              tabIndex={-1}
              onChange={onFileChosen}
            />
          </VisuallyHidden>
          <Button
            size="sm"
            variant="outline"
            loading={uploading}
            loadingText="Uploading..."
            onClick={() => inputRef.current?.click()}
          >
            <ImageUp aria-hidden />
            {me.avatarUrl ? 'Change Picture' : 'Upload Picture'}
          </Button>
          {me.avatarUrl && (
            <Button size="sm" variant="ghost" loading={removing} onClick={onRemove}>
              <Trash2 aria-hidden />
              Remove
            </Button>
          )}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          PNG, JPEG, GIF or WebP, up to 2 MB.
        </Text>
        {problem && (
          <Text role="alert" fontSize="sm" color="fg.error">
            {problem}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
