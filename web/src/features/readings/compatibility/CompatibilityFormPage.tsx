import { readingMessages } from '@astra/contracts';
import { Fieldset, HStack, Stack, Text } from '@chakra-ui/react';
import { type SyntheticEvent, useState } from 'react';
import { Surface } from '../../../ui/Surface';
import { notifyFormError } from '../../../ui/toaster';
import { BirthDataFields } from '../form/BirthDataFields';
import {
  type BirthDataDraft,
  birthDataFromProfile,
  birthDataIsComplete,
  birthDataToRequest,
  EMPTY_BIRTH_DATA,
} from '../form/birthDataDraft';
import { GenerateButton } from '../form/GenerateButton';
import { ImportFromProfileButton } from '../form/ImportFromProfileButton';
import { ReadingFormPage } from '../form/ReadingFormPage';
import { useGenerateReading } from '../form/useGenerateReading';

export default function CompatibilityFormPage() {
  const [person1, setPerson1] = useState<BirthDataDraft>(EMPTY_BIRTH_DATA);
  const [person2, setPerson2] = useState<BirthDataDraft>(EMPTY_BIRTH_DATA);
  const { generate, generating, cost, fieldErrors, clearFieldErrors } =
    useGenerateReading('compatibility');
  const complete = birthDataIsComplete(person1) && birthDataIsComplete(person2);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!complete) {
      notifyFormError(readingMessages.allRequiredFields);
      return;
    }
    void generate({
      kind: 'compatibility',
      body: { person1: birthDataToRequest(person1), person2: birthDataToRequest(person2) },
    });
  };

  const person = (
    number: 1 | 2,
    value: BirthDataDraft,
    onChange: (value: BirthDataDraft) => void,
  ) => (
    <Surface asChild gap="4">
      <Fieldset.Root>
        <HStack justify="space-between" wrap="wrap" gap="3" w="full">
          <Fieldset.Legend textStyle="sectionTitle" fontSize={{ base: 'lg', md: 'xl' }}>
            Person {number}
          </Fieldset.Legend>
          {number === 1 && (
            <ImportFromProfileButton
              onImport={(me) => {
                const imported = birthDataFromProfile(me, person1);
                if (imported) setPerson1(imported);
                return imported !== null;
              }}
            />
          )}
        </HStack>
        <BirthDataFields
          value={value}
          onChange={(next) => {
            onChange(next);
            clearFieldErrors();
          }}
          errors={fieldErrors}
          fieldPath={`person${number}.`}
        />
      </Fieldset.Root>
    </Surface>
  );

  return (
    <ReadingFormPage
      slug="compatibility"
      title="Compatibility Reading"
      intro="Enter the birth details of two people to see how their charts meet: where you flow together and where you grow."
      generating={generating}
    >
      <Stack asChild gap="5">
        <form noValidate onSubmit={submit} aria-label="Compatibility details">
          <Text fontSize="sm" color="fg.muted">
            All fields are required for both people.
          </Text>
          {person(1, person1, setPerson1)}
          {person(2, person2, setPerson2)}
          {!complete && (
            <Text fontSize="sm" color="fg.muted" role="status">
              {readingMessages.allRequiredFields} to analyze your compatibility.
            </Text>
          )}
          <GenerateButton label="Analyze Compatibility" cost={cost} disabled={!complete} />
        </form>
      </Stack>
    </ReadingFormPage>
  );
}
