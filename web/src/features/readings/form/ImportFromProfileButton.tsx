import type { Me } from '@astra/contracts';
import { Button } from '@chakra-ui/react';
import { UserRound } from 'lucide-react';
import { useState } from 'react';
import { notifyFormError, notifySuccess } from '../../../ui/toaster';
import { useCurrentUser } from '../../auth/authApi';

interface ImportFromProfileButtonProps {
  /** Fills the form from the profile; answers false when the profile had nothing to give. */
  onImport: (me: Me) => boolean;
  disabled?: boolean;
}

/** Spec §5 'Import from Profile': name and, where the form asks, birth data from /api/me. */
export function ImportFromProfileButton({ onImport, disabled }: ImportFromProfileButtonProps) {
  const { refetch } = useCurrentUser();
  const [loading, setLoading] = useState(false);

  const importProfile = async () => {
    setLoading(true);
    let me: Me | null;
    try {
      me = await refetch().unwrap();
    } catch {
      notifyFormError('Failed to load your profile data');
      return;
    } finally {
      setLoading(false);
    }
    if (!me) {
      notifyFormError('You must be logged in to import your profile');
    } else if (onImport(me)) {
      notifySuccess('Profile data imported');
    } else {
      notifyFormError('No profile data found', 'Please update your profile first');
    }
  };

  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={importProfile}
      loading={loading}
      disabled={disabled}
    >
      <UserRound aria-hidden />
      Import from Profile
    </Button>
  );
}
