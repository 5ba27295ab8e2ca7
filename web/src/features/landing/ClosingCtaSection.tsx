import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Section } from '../../ui/Surface';
import { useGetCatalogQuery } from '../dashboard/appsApi';
import { SignUpButton } from './SignUpButton';
import { welcomeOffer } from './welcomeOffer';

export function ClosingCtaSection() {
  const { data: catalog } = useGetCatalogQuery();
  const offer = welcomeOffer(catalog?.welcomeCredits, catalog?.items);

  return (
    <Section tone="night" aria-labelledby="cta-heading">
      <Container maxW="3xl" textAlign="center">
        <Stack gap="5" align="center">
          <Heading as="h2" id="cta-heading" textStyle="sectionTitle" color="night.fg">
            The stars are ready when you are
          </Heading>
          <Text color="night.muted" fontSize="lg">
            {offer
              ? `Create your account in a few seconds and receive ${offer}.`
              : 'Create your account in a few seconds and choose your first reading.'}
          </Text>
          <SignUpButton>Get Your First Reading</SignUpButton>
        </Stack>
      </Container>
    </Section>
  );
}
