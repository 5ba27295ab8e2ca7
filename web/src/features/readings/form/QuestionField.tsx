import { Field, Textarea } from '@chakra-ui/react';

interface QuestionFieldProps {
  value: string;
  onChange: (question: string) => void;
  /** The live counter, e.g. '12/300 words'. */
  counter: string;
  /** Shown (and the field marked invalid) when the question is over its limit. */
  errorText?: string;
}

/** 'Your question' with its live counter, which is also the field's description. */
export function QuestionField({ value, onChange, counter, errorText }: QuestionFieldProps) {
  return (
    <Field.Root required invalid={Boolean(errorText)}>
      <Field.Label>Your question</Field.Label>
      <Textarea
        name="question"
        rows={5}
        autoresize
        maxH="20lh"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="What would you like the cards to speak to?"
      />
      <Field.HelperText
        fontVariantNumeric="tabular-nums"
        color={errorText ? 'fg.error' : 'fg.muted'}
        alignSelf="flex-end"
      >
        {counter}
      </Field.HelperText>
      <Field.ErrorText>{errorText}</Field.ErrorText>
    </Field.Root>
  );
}
