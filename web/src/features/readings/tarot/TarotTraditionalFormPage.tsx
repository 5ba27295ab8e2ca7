import { countWords, readingMessages, TAROT_QUESTION_MAX_WORDS } from '@astra/contracts';
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

export default function TarotTraditionalFormPage() {
  const [firstName, setFirstName] = useState('');
  const [question, setQuestion] = useState('');
  const { generate, generating, cost, fieldErrors } = useGenerateReading(APP_IDS.tarotTraditional);
  const words = countWords(question);
  const tooLong = words > TAROT_QUESTION_MAX_WORDS;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!firstName.trim() || !question.trim()) {
      notifyError(readingMessages.nameAndQuestion);
      return;
    }
    if (tooLong) {
      notifyError(readingMessages.questionTooManyWords);
      return;
    }
    void generate({
      kind: 'tarot-traditional',
      body: { firstName: firstName.trim(), question: question.trim() },
    });
  };

  return (
    <ReadingFormPage
      appId={APP_IDS.tarotTraditional}
      title="Tarot Traditional"
      intro="Ask a question and draw three cards: your past, your present and your future, read around what you asked."
      generating={generating}
    >
      <Surface asChild gap="5">
        <form noValidate onSubmit={submit} aria-labelledby="tarot-form-heading">
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Heading as="h2" size="md" id="tarot-form-heading">
              Ask the Cards
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
              counter={`${words}/${TAROT_QUESTION_MAX_WORDS} words`}
              errorText={
                tooLong ? readingMessages.questionTooManyWords : fieldErrors.question || undefined
              }
            />
          </Stack>
          <GenerateButton label="Draw My Cards" cost={cost} disabled={tooLong} />
        </form>
      </Surface>
    </ReadingFormPage>
  );
}
