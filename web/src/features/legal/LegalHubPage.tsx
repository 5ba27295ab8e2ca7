import { Heading, LinkBox, LinkOverlay, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Building2, FileText, type LucideIcon, ShieldCheck } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { PageContainer } from '../../ui/PageContainer';
import { PageTitle } from '../../ui/PageTitle';
import { Surface } from '../../ui/Surface';
import { LEGAL_LAST_UPDATED } from './LegalDocument';

const DOCUMENTS: { to: string; title: string; text: string; icon: LucideIcon }[] = [
  {
    to: '/terms-of-service',
    title: 'Terms of Service',
    text: 'The rules for using Astra: credits, subscriptions, refunds and your rights.',
    icon: FileText,
  },
  {
    to: '/privacy-policy',
    title: 'Privacy Policy',
    text: 'What data we process, why, how long we keep it and how to reach us.',
    icon: ShieldCheck,
  },
  {
    to: '/impressum',
    title: 'Impressum',
    text: 'Who operates Astra and how to contact them.',
    icon: Building2,
  },
];

export default function LegalHubPage() {
  return (
    <PageContainer maxW="5xl">
      <PageTitle>Legal</PageTitle>
      <Stack gap="2">
        <Heading as="h1" textStyle="pageTitle">
          Legal Information
        </Heading>
        <Text color="fg.muted">Last updated {LEGAL_LAST_UPDATED}</Text>
      </Stack>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
        {DOCUMENTS.map(({ to, title, text, icon: Icon }) => (
          <LinkBox asChild key={to}>
            <Surface as="article" interactive>
              <Icon aria-hidden color="var(--chakra-colors-starlight-fg)" />
              <Heading as="h2" size="md">
                <LinkOverlay asChild>
                  <RouterLink to={to}>{title}</RouterLink>
                </LinkOverlay>
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Surface>
          </LinkBox>
        ))}
      </SimpleGrid>
    </PageContainer>
  );
}
