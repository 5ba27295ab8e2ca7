import { Box, Circle, Container, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Section } from '../../ui/Surface';
import { STEPS } from './landingContent';

export function HowItWorksSection() {
  return (
    <Section id="how-it-works" aria-labelledby="how-heading">
      <Container maxW="6xl">
        <Heading as="h2" id="how-heading" textStyle="sectionTitle" textAlign="center" mb="10">
          How it works
        </Heading>
        <SimpleGrid as="ol" columns={{ base: 1, sm: 2, lg: 4 }} gap="8" listStyleType="none">
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <Stack
              as="li"
              key={title}
              gap="3"
              align={{ base: 'flex-start', lg: 'center' }}
              textAlign={{ lg: 'center' }}
            >
              <Box position="relative">
                <Circle size="14" bg="brand.subtle" color="brand.fg">
                  <Icon aria-hidden size={26} />
                </Circle>
                <Circle
                  size="6"
                  bg="brand.solid"
                  color="brand.contrast"
                  fontSize="xs"
                  fontWeight="bold"
                  position="absolute"
                  top="-1"
                  right="-1"
                  aria-hidden
                >
                  {index + 1}
                </Circle>
              </Box>
              <Heading as="h3" size="md">
                {title}
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </Section>
  );
}
