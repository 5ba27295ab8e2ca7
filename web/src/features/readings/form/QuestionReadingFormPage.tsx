import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { TextField } from '../../../ui/TextField';
import { notifyFormError } from '../../../ui/toaster';
import { GenerateButton } from './GenerateButton';
import { QuestionField } from './QuestionField';
import { ReadingForm } from './ReadingForm';
import { ReadingFormPage } from './ReadingFormPage';
import { useGenerateReading } from './useGenerateReading';

/** How long a question may be: what is counted, up to what, and what is said past it. */
export interface QuestionLimit {
  count: (question: string) => number;
  max: number;
  /** The counter's unit, as in '12/300 words'. */
  unit: 'words' | 'characters';
  /** Shown under the field, and as the toast on submit, while the question is too long. */
  message: string;
}

interface QuestionReadingFormPageProps {
  kind: 'tarot-traditional' | 'tarot-celtic-cross';
  title: string;
  intro: string;
  heading: string;
  submitLabel: string;
  /** The toast when the name or the question is missing. */
  missingMessage: string;
  limit: QuestionLimit;
  /** Disable the submit button while the question is too long (else submitting says why). */
  disableWhenTooLong?: boolean;
}

/** The form of a reading that asks a first name and a question: both tarot spreads. */
export function QuestionReadingFormPage({
  kind,
  title,
  intro,
  heading,
  submitLabel,
  missingMessage,
  limit,
  disableWhenTooLong,
}: QuestionReadingFormPageProps) {
  const [firstName, setFirstName] = useState('');
  const [question, setQuestion] = useState('');
  const { generate, generating, cost, fieldErrors } = useGenerateReading(kind);
  const count = limit.count(question);
  const tooLong = count > limit.max;

  const submit = () => {
    if (!firstName.trim() || !question.trim()) {
      notifyFormError(missingMessage);
      return;
    }
    if (tooLong) {
      notifyFormError(limit.message);
      return;
    }
    void generate({ kind, body: { firstName: firstName.trim(), question: question.trim() } });
  };

  return (
    <ReadingFormPage slug={kind} title={title} intro={intro} generating={generating}>
      <ReadingForm
        heading={heading}
        onImport={(me) => {
          if (!me.firstName) return false;
          setFirstName(me.firstName);
          return true;
        }}
        onSubmit={submit}
      >
        <Stack gap="4">
          <TextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            maxLength={100}
            required
            value={firstName}
            onChange={setFirstName}
            errorText={fieldErrors.firstName}
          />
          <QuestionField
            value={question}
            onChange={setQuestion}
            counter={`${count}/${limit.max} ${limit.unit}`}
            errorText={tooLong ? limit.message : fieldErrors.question || undefined}
          />
        </Stack>
        <GenerateButton label={submitLabel} cost={cost} disabled={disableWhenTooLong && tooLong} />
      </ReadingForm>
    </ReadingFormPage>
  );
}
