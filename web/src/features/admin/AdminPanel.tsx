import type { AdminUser } from '@astra/contracts';
import { Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Lock } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { LoadingState } from '../../ui/LoadingState';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { notifyError } from '../../ui/toaster';
import { type AdminSection, AdminSectionNav, sectionOf } from './AdminSectionNav';
import { EmptyNote } from './AuditStates';
import { adminApi, useGetAdminStatsQuery, useLockAdminMutation } from './adminApi';
import { formatDateTime } from './adminFormat';
import { isUserId } from './auditFormat';
import { CreditManagementCard, type CreditTarget } from './CreditManagementCard';
import { StatCards } from './StatCards';
import { UserLedgerDialog } from './UserLedgerDialog';
import { UserManagement } from './UserManagement';

// The audit and finance screens load when they are first opened, not with the overview.
const LedgerExplorer = lazy(() =>
  import('./LedgerExplorer').then((module) => ({ default: module.LedgerExplorer })),
);
const UserAuditLedger = lazy(() =>
  import('./UserAuditLedger').then((module) => ({ default: module.UserAuditLedger })),
);
const AdminActivity = lazy(() =>
  import('./AdminActivity').then((module) => ({ default: module.AdminActivity })),
);
const FinanceView = lazy(() =>
  import('./FinanceView').then((module) => ({ default: module.FinanceView })),
);
const ProjectionsView = lazy(() =>
  import('./ProjectionsView').then((module) => ({ default: module.ProjectionsView })),
);

/** The Ledger section: the explorer, or one user's audit ledger (`?tab=ledger&user={id}`). */
function LedgerSection({ userId }: { userId: string | null }) {
  if (userId === null) return <LedgerExplorer />;
  if (!isUserId(userId)) {
    return (
      <EmptyNote title="This is not a user id">
        A user's audit ledger opens from "View ledger" in User Management, or from a user in the
        ledger explorer.
      </EmptyNote>
    );
  }
  return <UserAuditLedger key={userId} userId={userId} />;
}

function SectionContent({ section, userId }: { section: AdminSection; userId: string | null }) {
  switch (section) {
    case 'ledger':
      return <LedgerSection userId={userId} />;
    case 'activity':
      return <AdminActivity />;
    case 'finance':
      return <FinanceView />;
    case 'projections':
      return <ProjectionsView />;
    default:
      return null;
  }
}

/**
 * The unlocked admin panel: a navigation between its sections (in the address, `?tab=`), the
 * overview (the four stats, Credit Management and User Management), the ledger explorer and
 * users' audit ledgers, admin activity, finance and projections.
 */
export function AdminPanel({ unlockedUntil }: { unlockedUntil: string | null }) {
  const dispatch = useAppDispatch();
  const [searchParams] = useSearchParams();
  const section = sectionOf(searchParams.get('tab'));
  const stats = useGetAdminStatsQuery(undefined, { refetchOnMountOrArgChange: 30 });
  const [lock, { isLoading: locking }] = useLockAdminMutation();
  const [creditTarget, setCreditTarget] = useState<CreditTarget | null>(null);
  const [ledgerUser, setLedgerUser] = useState<AdminUser | null>(null);

  // The unlock ran out (8 hours) or was ended elsewhere (a block or demotion of this admin):
  // back to the password gate, which tells a former admin that access is denied.
  const statsCode = stats.isError ? describeApiError(stats.error).code : undefined;
  useEffect(() => {
    if (statsCode === 'admin_locked' || statsCode === 'admin_required') {
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

      <AdminSectionNav current={section} />

      <Stack gap="6" aria-labelledby={`admin-nav-${section}`} role="region" minW="0">
        {section === 'overview' ? (
          <>
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
          </>
        ) : (
          <Suspense fallback={<LoadingState />}>
            <SectionContent section={section} userId={searchParams.get('user')} />
          </Suspense>
        )}
      </Stack>
    </PageContainer>
  );
}
