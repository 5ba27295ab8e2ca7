import type { AdminUser } from '@astra/contracts';
import { Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Lock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { notifyError } from '../../ui/toaster';
import { adminApi, useGetAdminStatsQuery, useLockAdminMutation } from './adminApi';
import { formatDateTime } from './adminFormat';
import { CreditManagementCard, type CreditTarget } from './CreditManagementCard';
import { StatCards } from './StatCards';
import { UserLedgerDialog } from './UserLedgerDialog';
import { UserManagement } from './UserManagement';

/** The unlocked admin panel: the four stats, Credit Management and User Management. */
export function AdminPanel({ unlockedUntil }: { unlockedUntil: string | null }) {
  const dispatch = useAppDispatch();
  const stats = useGetAdminStatsQuery(undefined, { refetchOnMountOrArgChange: 30 });
  const [lock, { isLoading: locking }] = useLockAdminMutation();
  const [creditTarget, setCreditTarget] = useState<CreditTarget | null>(null);
  const [ledgerUser, setLedgerUser] = useState<AdminUser | null>(null);

  // The unlock ran out (8 hours) or was ended elsewhere: back to the password gate.
  const statsCode = stats.isError ? describeApiError(stats.error).code : undefined;
  useEffect(() => {
    if (statsCode === 'admin_locked') {
      dispatch(adminApi.util.invalidateTags(['AdminSession']));
    }
  }, [statsCode, dispatch]);
  // At the unlock's end the panel gives way to the gate without waiting for a refused request.
  useEffect(() => {
    if (!unlockedUntil) return;
    const left = Date.parse(unlockedUntil) - Date.now();
    if (!(left < 2 ** 31 - 1)) return;
    const timer = window.setTimeout(
      () => dispatch(adminApi.util.invalidateTags(['AdminSession'])),
      Math.max(0, left) + 1000,
    );
    return () => window.clearTimeout(timer);
  }, [unlockedUntil, dispatch]);

  const onLock = async () => {
    try {
      await lock().unwrap();
    } catch (error) {
      const info = describeApiError(error);
      if (info.status !== 404) notifyError('Could not lock the admin panel', info.message);
    }
  };

  return (
    <PageContainer maxW="6xl">
      <PageTitle>Admin Panel</PageTitle>
      <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" gap="3">
        <Stack gap="1">
          <Heading as="h1" textStyle="pageTitle">
            Admin Panel
          </Heading>
          {unlockedUntil && (
            <Text color="fg.muted" fontSize="sm">
              Unlocked until <time dateTime={unlockedUntil}>{formatDateTime(unlockedUntil)}</time>
            </Text>
          )}
        </Stack>
        <HStack align="flex-start">
          <Button variant="outline" onClick={onLock} loading={locking} loadingText="Locking...">
            <Lock aria-hidden />
            Lock
          </Button>
        </HStack>
      </Stack>

      <StatCards
        stats={stats.data}
        isLoading={stats.isLoading}
        isError={stats.isError}
        onRetry={() => stats.refetch()}
      />
      <CreditManagementCard target={creditTarget} />
      <UserManagement
        onAdjustCredits={(user) => setCreditTarget({ user, nonce: Date.now() })}
        onViewLedger={setLedgerUser}
      />
      <UserLedgerDialog user={ledgerUser} onClose={() => setLedgerUser(null)} />
    </PageContainer>
  );
}
