import { Container, Heading, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Mic } from 'lucide-react';
import { Section, Surface } from '../../ui/Surface';
import { VOICE_TOPICS } from './landingContent';

export function VoiceGuideSection() {
  return (
    <Section tone="subtle" aria-labelledby="voice-heading">
      <Container maxW="6xl">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="10" alignItems="center">
          <Stack gap="4">
            <Text textStyle="eyebrow" color="starlight.fg">
              AI voice guidance
            </Text>
            <Heading as="h2" id="voice-heading" textStyle="sectionTitle">
              Talk your reading through, out loud
            </Heading>
            <Text color="fg.muted">
              After a reading you can open a voice conversation with your AI guide. It knows what
              your chart or cards said, so you can ask what it means for your situation and go as
              deep as you like.
            </Text>
            <Text color="fg.muted" fontSize="sm">
              Voice recordings are kept for at most 30 days.
            </Text>
          </Stack>
          <Surface tone="glow" gap="4">
            <Stack direction="row" align="center" gap="3">
              <Mic aria-hidden color="var(--chakra-colors-starlight-fg)" />
              <Heading as="h3" size="md">
                Things people ask their guide
              </Heading>
            </Stack>
            <List.Root gap="3" ps="5">
              {VOICE_TOPICS.map((topic) => (
                <List.Item key={topic}>“{topic}”</List.Item>
              ))}
            </List.Root>
          </Surface>
        </SimpleGrid>
      </Container>
    </Section>
  );
}
