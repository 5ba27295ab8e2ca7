import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import { LinkButton } from '../../ui/LinkButton';
import { Section } from '../../ui/Surface';

export function ClosingCtaSection() {
  return (
    <Section tone="night" aria-labelledby="cta-heading">
      <Container maxW="3xl" textAlign="center">
        <Stack gap="5" align="center">
          <Heading as="h2" id="cta-heading" textStyle="sectionTitle" color="night.fg">
            The stars are ready when you are
          </Heading>
          <Text color="night.muted" fontSize="lg">
            Create your account in a few seconds and receive free welcome credits for your first
            reading.
          </Text>
          <LinkButton
            to="/auth"
            size="xl"
            bg="gold.300"
            color="navy.900"
            _hover={{ bg: 'gold.200' }}
            focusRingColor="gold.300"
          >
            Get Your First Reading
          </LinkButton>
        </Stack>
      </Container>
    </Section>
  );
}
