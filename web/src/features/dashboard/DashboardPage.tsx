import { Alert, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { MessageCircleHeart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { LinkButton } from '../../ui/LinkButton';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { readFlag, setFlag } from '../../ui/storedFlag';
import { TextLink } from '../../ui/TextLink';
import { useCurrentUser } from '../auth/authApi';
import { hasDashboardBirthData } from '../profile/birthData';
import { READINGS } from '../readings/readingCatalog';
import { useGetAppsQuery } from './appsApi';
import { ComingSoonCard, ReadingAppCard } from './ReadingAppCard';
import { SubscriptionCard } from './SubscriptionCard';

/**
 * A first visit to the dashboard (right after onboarding) is greeted as one, later ones as returns.
 * Which it is, the browser keeps: a page drawn on the server asks its question without either,
 * and the app adds the greeting once it has started.
 */
function Greeting({ userId }: { userId: string }) {
  const visitedKey = `astra.dashboardVisited.${userId}`;
  const [returning, setReturning] = useState<boolean | null>(null);
  useEffect(() => {
    setReturning(readFlag(visitedKey));
    setFlag(visitedKey);
  }, [visitedKey]);
  return (
    <Text color="fg.muted">
      {returning === null
        ? 'What would you like to ask the stars today?'
        : returning
          ? 'Welcome back. What would you like to ask the stars today?'
          : 'Welcome to Astra! What would you like to ask the stars first?'}
    </Text>
  );
}

export default function DashboardPage() {
  const { me } = useCurrentUser();
  const { data: apps, isLoading: appsLoading, isError: appsFailed } = useGetAppsQuery();
  if (!me) return null;

  const title = me.firstName ? `${me.firstName}'s Dashboard` : 'Your Dashboard';

  return (
    <PageContainer maxW="6xl">
      <PageTitle>Dashboard</PageTitle>
      <Stack gap="1">
        <Heading as="h1" textStyle="pageTitle">
          {title}
        </Heading>
        <Greeting userId={me.id} />
      </Stack>

      {me.subscription && <SubscriptionCard me={me} subscription={me.subscription} />}

      {!hasDashboardBirthData(me) && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Your birth details are incomplete</Alert.Title>
            <Alert.Description>
              Add your birth date, time and city for more precise readings.{' '}
              <TextLink to="/profile">Complete your profile</TextLink>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}

      <Stack as="section" aria-labelledby="readings-heading" gap="4">
        <Heading as="h2" textStyle="sectionTitle" id="readings-heading">
          Choose a Reading
        </Heading>
        {appsFailed && (
          <Text color="fg.error" role="alert">
            We couldn't load the current prices. Each reading shows its cost before you spend.
          </Text>
        )}
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4">
          {Object.values(READINGS).map((info) => (
            <ReadingAppCard
              key={info.slug}
              info={info}
              app={apps?.find((app) => app.slug === info.slug)}
              costLoading={appsLoading}
            />
          ))}
          <ComingSoonCard />
        </SimpleGrid>
      </Stack>

      <Surface
        as="section"
        tone="muted"
        aria-labelledby="feedback-heading"
        flexDirection={{ base: 'column', md: 'row' }}
        alignItems={{ md: 'center' }}
        justifyContent="space-between"
      >
        <Stack gap="1">
          <Heading as="h2" size="md" id="feedback-heading">
            How is Astra treating you?
          </Heading>
          <Text color="fg.muted">We read every note and use it to shape what comes next.</Text>
        </Stack>
        <LinkButton to="/about#feedback" variant="outline">
          <MessageCircleHeart aria-hidden />
          Send Feedback
        </LinkButton>
      </Surface>
    </PageContainer>
  );
}
