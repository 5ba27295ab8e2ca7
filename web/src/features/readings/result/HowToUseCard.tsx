import {
  Box,
  Button,
  CloseButton,
  Heading,
  HStack,
  List,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { ArrowDown } from 'lucide-react';
import { memo, type ReactNode, useState } from 'react';
import { Surface } from '../../../ui/Surface';
import { readFlag, setFlag } from '../../../ui/storedFlag';
import { VoiceGuideButton } from '../../voice/VoiceGuideButton';
import { useReportHighlightContext } from './useReportHighlight';

const HOW_TO_DISMISSED_KEY = 'astra.howToUseDismissed';

interface HowToUseCardProps {
  /** Tarot and life path let people put the card away (spec §2). */
  dismissible?: boolean;
}

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <List.Item display="flex" gap="3" alignItems="flex-start">
      <Box
        aria-hidden
        flexShrink="0"
        boxSize="8"
        rounded="full"
        bg="brand.solid"
        color="brand.contrast"
        display="flex"
        alignItems="center"
        justifyContent="center"
        fontWeight="bold"
      >
        {number}
      </Box>
      <Stack gap="2" flex="1" minW="0">
        <Heading as="h3" size="sm">
          <VisuallyHidden>Step {number}: </VisuallyHidden>
          {title}
        </Heading>
        {children}
      </Stack>
    </List.Item>
  );
}

/**
 * Spec §2 'How to Use Your Reading': step 1 leads to the report, step 2 is the voice guide's
 * button (the same as the voice session card's: its label follows the session).
 */
export const HowToUseCard = memo(function HowToUseCard({ dismissible = false }: HowToUseCardProps) {
  const { goToReading } = useReportHighlightContext();
  // Put away once, it stays away in this browser: the steps are the same on every reading.
  const [dismissed, setDismissed] = useState(() => dismissible && readFlag(HOW_TO_DISMISSED_KEY));
  if (dismissed) return null;
  const dismiss = () => {
    setFlag(HOW_TO_DISMISSED_KEY);
    setDismissed(true);
  };

  return (
    <Surface as="section" aria-labelledby="how-to-heading" tone="glow" gap="4">
      <HStack justify="space-between" align="flex-start">
        <Heading as="h2" size="md" id="how-to-heading">
          How to Use Your Reading
        </Heading>
        {dismissible && (
          <CloseButton
            size="sm"
            aria-label="Dismiss how to use your reading"
            onClick={dismiss}
            mt="-1"
            me="-2"
          />
        )}
      </HStack>
      <List.Root as="ol" listStyleType="none" gap="4">
        <Step number={1} title="Review Your Reading">
          <Text color="fg.muted" fontSize="sm">
            Read your full reading below, at your own pace. It is saved in your library.
          </Text>
          <Button size="sm" alignSelf="flex-start" onClick={goToReading}>
            <ArrowDown aria-hidden />
            Go to Reading
          </Button>
        </Step>
        <Step number={2} title="Start Voice Consultation">
          <Text color="fg.muted" fontSize="sm">
            Talk your reading through with Astra's AI voice guide.
          </Text>
          <VoiceGuideButton size="sm" variant="outline" />
        </Step>
      </List.Root>
    </Surface>
  );
});
