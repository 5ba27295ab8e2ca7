import { Box, Container, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { useGetSiteQuery } from '../features/site/siteApi';
import { Logo } from './Logo';

const QUICK_LINKS = [
  { to: '/about', label: 'About' },
  { to: '/legal', label: 'Legal' },
  { to: '/pricing', label: 'Pricing' },
];

// Short names keep them distinct from the full-length links inside pages (e.g. on /auth).
const LEGAL_LINKS = [
  { to: '/terms-of-service', label: 'Terms' },
  { to: '/privacy-policy', label: 'Privacy' },
  { to: '/impressum', label: 'Imprint' },
];

function FooterLinks({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack as="nav" aria-label={title} gap="2">
      <Heading as="h2" size="sm">
        {title}
      </Heading>
      <Stack as="ul" gap="1" listStyleType="none">
        {children}
      </Stack>
    </Stack>
  );
}

/** The list items of links to pages of this site. */
function PageLinks({ links }: { links: readonly { to: string; label: string }[] }) {
  return links.map((link) => (
    <li key={link.to}>
      <Link asChild color="fg.muted" fontSize="sm">
        <RouterLink to={link.to}>{link.label}</RouterLink>
      </Link>
    </li>
  ));
}

export function Footer() {
  // The operator's own accounts (`SOCIAL_LINKS`); none configured, no column.
  const socialLinks = useGetSiteQuery().data?.socialLinks ?? [];
  return (
    <Box as="footer" bg="bg.subtle" borderTopWidth="1px" borderColor="border" mt="auto">
      <Container maxW="6xl" px={{ base: '4', md: '8' }} py="10">
        <SimpleGrid columns={{ base: 1, sm: 2, md: 4 }} gap="8">
          <Stack gap="3">
            <Logo />
            <Text fontSize="sm" color="fg.muted">
              Astrology, tarot and numerology readings for reflection and entertainment.
            </Text>
          </Stack>
          <FooterLinks title="Quick Links">
            <PageLinks links={QUICK_LINKS} />
          </FooterLinks>
          <FooterLinks title="Legal">
            <PageLinks links={LEGAL_LINKS} />
          </FooterLinks>
          {socialLinks.length > 0 && (
            <FooterLinks title="Follow Us">
              {socialLinks.map((link) => (
                <li key={link.url}>
                  <Link
                    href={link.url}
                    color="fg.muted"
                    fontSize="sm"
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </FooterLinks>
          )}
        </SimpleGrid>
        {/* Around New Year the server that drew the page and the browser may differ: no mismatch. */}
        <Text fontSize="sm" color="fg.muted" mt="10" suppressHydrationWarning>
          © {new Date().getFullYear()} Astra. All rights reserved.
        </Text>
      </Container>
    </Box>
  );
}
