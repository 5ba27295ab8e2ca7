import { Container, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Section, Surface } from '../../ui/Surface';
import { OFFERINGS } from './landingContent';

export function OfferingsSection() {
  return (
    <Section aria-labelledby="offerings-heading">
      <Container maxW="6xl">
        <Stack gap="3" textAlign="center" mb="10">
          <Heading as="h2" id="offerings-heading" textStyle="sectionTitle">
            Five ways to look up
          </Heading>
          <Text color="fg.muted" maxW="2xl" mx="auto">
            Whether you want to understand yourself, a relationship or a decision, there is a
            reading for it.
          </Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
          {OFFERINGS.map(({ icon: Icon, title, text }) => (
            <Surface as="article" key={title}>
              <Icon aria-hidden size={28} color="var(--chakra-colors-starlight-fg)" />
              <Heading as="h3" size="md">
                {title}
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Surface>
          ))}
        </SimpleGrid>
      </Container>
    </Section>
  );
}
