import { NUMEROLOGY_FIRST_YEAR, readingMessages } from '@astra/contracts';
import { SimpleGrid } from '@chakra-ui/react';
import { useState } from 'react';
import { TextField } from '../../../ui/TextField';
import { notifyFormError } from '../../../ui/toaster';
import { BirthDateSelect } from '../../profile/BirthDateSelect';
import {
  type BirthDateParts,
  composeBirthDate,
  EMPTY_BIRTH_DATE,
  partsFromDate,
} from '../../profile/birthDateParts';
import { GenerateButton } from '../form/GenerateButton';
import { ReadingForm } from '../form/ReadingForm';
import { ReadingFormPage } from '../form/ReadingFormPage';
import { useGenerateReading } from '../form/useGenerateReading';

export default function LifePathFormPage() {
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [birthDate, setBirthDate] = useState<BirthDateParts>(EMPTY_BIRTH_DATE);
  const { generate, generating, cost, fieldErrors } = useGenerateReading('life-path');

  const submit = () => {
    const date = composeBirthDate(birthDate);
    if (!firstName.trim() || !lastName.trim() || !date) {
      notifyFormError(readingMessages.allRequiredFields);
      return;
    }
    void generate({
      kind: 'life-path',
      body: { firstName: firstName.trim(), lastName: lastName.trim(), birthDate: date },
    });
  };

  return (
    <ReadingFormPage
      slug="life-path"
      title="Life Path Number"
      intro="Numerology reads your full birth name and birth date: your life path, destiny and soul urge numbers, and what they say about the road you walk."
      generating={generating}
    >
      <ReadingForm
        heading="Your Name and Birth Date"
        onImport={(me) => {
          if (!me.firstName && !me.lastName && !me.birthDate) return false;
          if (me.firstName) setFirstName(me.firstName);
          if (me.lastName) setLastName(me.lastName);
          if (me.birthDate) setBirthDate(partsFromDate(me.birthDate));
          return true;
        }}
        onSubmit={submit}
      >
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
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
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            maxLength={100}
            required
            value={lastName}
            onChange={setLastName}
            errorText={fieldErrors.lastName}
          />
          <BirthDateSelect
            value={birthDate}
            onChange={setBirthDate}
            earliestYear={NUMEROLOGY_FIRST_YEAR}
            required
            partialHint="Choose the day, month and year."
          />
        </SimpleGrid>
        <GenerateButton label="Calculate My Numbers" cost={cost} />
      </ReadingForm>
    </ReadingFormPage>
  );
}
