import { type ReadingKind, readingMessages } from '@astra/contracts';
import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useEffect } from 'react';
import { Navigate } from 'react-router';
import { BackLink } from '../../../ui/BackLink';
import { PageContainer } from '../../../ui/PageContainer';
import { PageTitle } from '../../../ui/PageTitle';
import { clearFormErrors, toaster } from '../../../ui/toaster';
import { useGetMeQuery } from '../../auth/authApi';
import { CreditCostNotice } from './CreditCostNotice';
import { GenerationLoading } from './GenerationLoading';

const BLOCKED_TOAST_ID = 'account-blocked';

interface ReadingFormPageProps {
  slug: ReadingKind;
  title: string;
  intro: string;
  generating: boolean;
  children: ReactNode;
}

/**
 * The frame of every reading form: back link to /app, title, the blocked-account guard
 * (spec §6), the loading card over the form while the reading is started, and the end of the
 * form's error toasts when it is left.
 */
export function ReadingFormPage({
  slug,
  title,
  intro,
  generating,
  children,
}: ReadingFormPageProps) {
  // Asked afresh on every form: a block an admin applied since the last look takes effect now.
  const { data: me } = useGetMeQuery(undefined, { refetchOnMountOrArgChange: true });
  const blocked = me?.status === 'blocked';

  // Leaving the form takes its error toasts with it.
  useEffect(() => clearFormErrors, []);

  useEffect(() => {
    if (blocked && !toaster.isVisible(BLOCKED_TOAST_ID)) {
      toaster.create({
        id: BLOCKED_TOAST_ID,
        type: 'error',
        title: readingMessages.accountBlocked,
        closable: true,
      });
    }
  }, [blocked]);

  if (blocked) return <Navigate to="/app" replace />;

  return (
    <PageContainer maxW="3xl">
      <PageTitle>{title}</PageTitle>
      <BackLink />
      <Stack gap="2">
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        <Text color="fg.muted">{intro}</Text>
      </Stack>
      <CreditCostNotice slug={slug} />
      {/* While generating, the form keeps its input but cannot be reached. */}
      <Box inert={generating} aria-hidden={generating || undefined}>
        {children}
      </Box>
      {generating && <GenerationLoading />}
    </PageContainer>
  );
}
