import { voiceMessages } from '@astra/contracts';
import { Button, type ButtonProps, Stack, Text } from '@chakra-ui/react';
import { AudioLines, Mic } from 'lucide-react';
import { useId } from 'react';
import { useReadingProgress } from '../readings/result/readingProgress';
import { useVoiceGuide } from './voiceGuideContext';

type VoiceGuideButtonProps = Omit<ButtonProps, 'onClick' | 'children' | 'disabled' | 'loading'> & {
  /** The label where the page has no voice guide (an old link without a saved reading). */
  fallbackLabel?: string;
};

/**
 * The voice guide's button (how-to card step 2 and the voice session card): 'Speak to Voice
 * Guide' (or 'Activate Voice Guide'), 'Voice Guide Active' while a session runs (pressing it
 * brings the conversation into view), 'Reactivate Voice Agent (n credits)' after use; disabled
 * with 'Insufficient credits (balance/n needed)' when the balance does not cover it.
 */
export function VoiceGuideButton({
  fallbackLabel = voiceMessages.speak,
  ...buttonProps
}: VoiceGuideButtonProps) {
  const guide = useVoiceGuide();
  const { writing } = useReadingProgress();
  const hintId = useId();

  if (!guide) {
    return (
      <Stack gap="1" alignItems="flex-start">
        <Button {...buttonProps} disabled aria-describedby={hintId}>
          <Mic aria-hidden />
          {fallbackLabel}
        </Button>
        <Text id={hintId} fontSize="sm" color="fg.muted">
          {writing
            ? 'The voice guide is ready once your reading is written.'
            : 'Open this reading from your library to talk it through with the voice guide.'}
        </Text>
      </Stack>
    );
  }

  const { status, session, starting, insufficient, balance } = guide;
  const active = Boolean(session);
  const label = active
    ? voiceMessages.active
    : status?.used
      ? voiceMessages.reactivate(status.reactivationCost)
      : guide.startLabel;
  const hint =
    !active && insufficient && status
      ? voiceMessages.insufficientHint(balance ?? 0, status.nextSessionCost)
      : null;

  return (
    <Stack gap="1" alignItems="flex-start">
      <Button
        {...buttonProps}
        variant={active ? 'subtle' : buttonProps.variant}
        onClick={guide.press}
        loading={starting}
        disabled={!status || (!active && insufficient)}
        aria-describedby={hint ? hintId : undefined}
        data-state={active ? 'active' : status?.used ? 'used' : 'ready'}
      >
        {active ? <AudioLines aria-hidden /> : <Mic aria-hidden />}
        {label}
      </Button>
      {hint && (
        <Text id={hintId} fontSize="sm" color="fg.error">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
