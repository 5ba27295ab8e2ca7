import { Box, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Star } from 'lucide-react';
import { Section } from '../../ui/Surface';
import { SignUpButton } from './SignUpButton';

export function HeroSection() {
  return (
    <Section tone="night" aria-labelledby="hero-heading" py={{ base: '16', md: '28' }}>
      <Container maxW="4xl" textAlign="center">
        <Stack gap="6" align="center">
          <Text textStyle="eyebrow" color="night.accent">
            Astrology · Tarot · Numerology
          </Text>
          <Heading as="h1" id="hero-heading" textStyle="display" color="night.fg">
            Speak to the stars.
          </Heading>
          <Text fontSize={{ base: 'lg', md: 'xl' }} color="night.muted" maxW="2xl">
            Personal readings drawn from your birth chart, the cards and your numbers. Then talk
            them through with an AI voice guide who knows your reading.
          </Text>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3" w={{ base: 'full', sm: 'auto' }}>
            <SignUpButton>Begin Your Journey</SignUpButton>
          </Stack>
          <HStack gap="2" color="night.muted" fontSize="sm">
            <Box as="span" display="inline-flex" color="night.accent" aria-hidden>
              {[0, 1, 2, 3, 4].map((i) => (
                <Star key={i} size={16} fill="currentColor" />
              ))}
            </Box>
            <Text as="span">5,000+ readings completed</Text>
          </HStack>
        </Stack>
      </Container>
    </Section>
  );
}
