import { CELTIC_CROSS_QUESTION_MAX_CHARACTERS, readingMessages } from '@astra/contracts';
import { Field, Heading, HStack, Input, Stack } from '@chakra-ui/react';
import { type SyntheticEvent, useState } from 'react';
import { Surface } from '../../../ui/Surface';
import { notifyError } from '../../../ui/toaster';
import { GenerateButton } from '../form/GenerateButton';
import { ImportFromProfileButton } from '../form/ImportFromProfileButton';
import { QuestionField } from '../form/QuestionField';
import { ReadingFormPage } from '../form/ReadingFormPage';
import { useGenerateReading } from '../form/useGenerateReading';
import { APP_IDS } from '../readingCatalog';

export default function CelticCrossFormPage() {
  const [firstName, setFirstName] = useState('');
  const [question, setQuestion] = useState('');
  const { generate, generating, cost, fieldErrors } = useGenerateReading(APP_IDS.celticCross);
  // The server trims before it counts; so does the counter.
  const characters = question.trim().length;
  const tooLong = characters > CELTIC_CROSS_QUESTION_MAX_CHARACTERS;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!firstName.trim() || !question.trim()) {
      notifyError(readingMessages.allRequiredFields);
      return;
    }
    if (tooLong) {
      notifyError(readingMessages.questionTooLong);
      return;
    }
    void generate({
      kind: 'tarot-celtic-cross',
      body: { firstName: firstName.trim(), question: question.trim() },
    });
  };

  return (
    <ReadingFormPage
      appId={APP_IDS.celticCross}
      title="Tarot Celtic Cross"
      intro="The ten-card Celtic Cross looks at a big question from every side: its roots, what crosses it, what you hope and fear, and where it may lead."
      generating={generating}
    >
      <Surface asChild gap="5">
        <form noValidate onSubmit={submit} aria-labelledby="celtic-form-heading">
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Heading as="h2" size="md" id="celtic-form-heading">
              Ask the Celtic Cross
            </Heading>
            <ImportFromProfileButton
              onImport={(me) => {
                if (!me.firstName) return false;
                setFirstName(me.firstName);
                return true;
              }}
            />
          </HStack>
          <Stack gap="4">
            <Field.Root required invalid={Boolean(fieldErrors.firstName)}>
              <Field.Label>First name</Field.Label>
              <Input
                name="firstName"
                autoComplete="given-name"
                maxLength={100}
                value={firstName}
                onChange={(event) => setFirstName(event.target.value)}
              />
              <Field.ErrorText>{fieldErrors.firstName}</Field.ErrorText>
            </Field.Root>
            <QuestionField
              value={question}
              onChange={setQuestion}
              counter={`${characters}/${CELTIC_CROSS_QUESTION_MAX_CHARACTERS} characters`}
              errorText={
                tooLong ? readingMessages.questionTooLong : fieldErrors.question || undefined
              }
            />
          </Stack>
          <GenerateButton label="Reveal the Celtic Cross" cost={cost} />
        </form>
      </Surface>
    </ReadingFormPage>
  );
}
