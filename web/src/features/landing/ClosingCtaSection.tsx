import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import { Section } from '../../ui/Surface';
import { SignUpButton } from './SignUpButton';

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
          <SignUpButton>Get Your First Reading</SignUpButton>
        </Stack>
      </Container>
    </Section>
  );
}
