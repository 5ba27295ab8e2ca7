import { Badge, Button, VisuallyHidden } from '@chakra-ui/react';
import { Sparkles } from 'lucide-react';
import { useId } from 'react';

interface GenerateButtonProps {
  /** The button's accessible name, e.g. 'Generate My Natal Chart'. */
  label: string;
  cost: number;
  disabled?: boolean;
}

/** The form's submit button with the reading's cost on it; the cost is its description. */
export function GenerateButton({ label, cost, disabled }: GenerateButtonProps) {
  const costId = useId();
  const credits = `${cost} ${cost === 1 ? 'credit' : 'credits'}`;
  return (
    <>
      <Button
        type="submit"
        size="lg"
        disabled={disabled}
        aria-describedby={costId}
        alignSelf={{ base: 'stretch', sm: 'flex-start' }}
        whiteSpace="normal"
        h="auto"
        minH="12"
        py="2"
      >
        <Sparkles aria-hidden />
        {label}
        <Badge aria-hidden variant="surface" colorPalette="gray" size="md" ms="1">
          {credits}
        </Badge>
      </Button>
      <VisuallyHidden id={costId}>Costs {credits}.</VisuallyHidden>
    </>
  );
}
