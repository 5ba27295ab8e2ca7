import { Field, Input } from '@chakra-ui/react';

interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  maxLength?: number;
  required?: boolean;
  disabled?: boolean;
  /** The server's message for this field; marks the field invalid and is shown under it. */
  errorText?: string;
}

/** A labelled one-line text input (names, places) as the profile and reading forms use it. */
export function TextField({
  label,
  onChange,
  required,
  disabled,
  errorText,
  ...input
}: TextFieldProps) {
  return (
    <Field.Root required={required} disabled={disabled} invalid={Boolean(errorText)}>
      <Field.Label>{label}</Field.Label>
      <Input {...input} onChange={(event) => onChange(event.target.value)} />
      <Field.ErrorText>{errorText}</Field.ErrorText>
    </Field.Root>
  );
}
