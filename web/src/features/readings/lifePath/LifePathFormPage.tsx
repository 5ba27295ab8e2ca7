import { NATAL_FIRST_YEAR, readingMessages } from '@astra/contracts';
import { Field, Heading, HStack, Input, SimpleGrid } from '@chakra-ui/react';
import { type SyntheticEvent, useState } from 'react';
import { Surface } from '../../../ui/Surface';
import { notifyError } from '../../../ui/toaster';
import { BirthDateSelect } from '../../profile/BirthDateSelect';
import {
  type BirthDateParts,
  composeBirthDate,
  EMPTY_BIRTH_DATE,
  partsFromDate,
} from '../../profile/birthDateParts';
import { GenerateButton } from '../form/GenerateButton';
import { ImportFromProfileButton } from '../form/ImportFromProfileButton';
import { ReadingFormPage } from '../form/ReadingFormPage';
import { useGenerateReading } from '../form/useGenerateReading';
import { APP_IDS } from '../readingCatalog';

export default function LifePathFormPage() {
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [birthDate, setBirthDate] = useState<BirthDateParts>(EMPTY_BIRTH_DATE);
  const { generate, generating, cost, fieldErrors } = useGenerateReading(APP_IDS.lifePath);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const date = composeBirthDate(birthDate);
    if (!firstName.trim() || !lastName.trim() || !date) {
      notifyError(readingMessages.allRequiredFields);
      return;
    }
    void generate({
      kind: 'life-path',
      body: { firstName: firstName.trim(), lastName: lastName.trim(), birthDate: date },
    });
  };

  return (
    <ReadingFormPage
      appId={APP_IDS.lifePath}
      title="Life Path Number"
      intro="Numerology reads your full birth name and birth date: your life path, destiny and soul urge numbers, and what they say about the road you walk."
      generating={generating}
    >
      <Surface asChild gap="5">
        <form noValidate onSubmit={submit} aria-labelledby="lifepath-form-heading">
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Heading as="h2" size="md" id="lifepath-form-heading">
              Your Name and Birth Date
            </Heading>
            <ImportFromProfileButton
              onImport={(me) => {
                if (!me.firstName && !me.lastName && !me.birthDate) return false;
                if (me.firstName) setFirstName(me.firstName);
                if (me.lastName) setLastName(me.lastName);
                if (me.birthDate) setBirthDate(partsFromDate(me.birthDate));
                return true;
              }}
            />
          </HStack>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
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
            <Field.Root required invalid={Boolean(fieldErrors.lastName)}>
              <Field.Label>Last name</Field.Label>
              <Input
                name="lastName"
                autoComplete="family-name"
                maxLength={100}
                value={lastName}
                onChange={(event) => setLastName(event.target.value)}
              />
              <Field.ErrorText>{fieldErrors.lastName}</Field.ErrorText>
            </Field.Root>
            <BirthDateSelect
              value={birthDate}
              onChange={setBirthDate}
              firstYear={NATAL_FIRST_YEAR}
              required
              partialHint="Choose the day, month and year."
            />
          </SimpleGrid>
          <GenerateButton label="Calculate My Numbers" cost={cost} />
        </form>
      </Surface>
    </ReadingFormPage>
  );
}
