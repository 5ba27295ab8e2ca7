import { Field, Input, SimpleGrid } from '@chakra-ui/react';
import { PlaceCombobox } from '../../places/PlaceCombobox';
import { BirthDateSelect } from '../../profile/BirthDateSelect';
import { type BirthDataDraft, choosePlace } from './birthDataDraft';
import type { FieldErrors } from './useGenerateReading';

interface BirthDataFieldsProps {
  value: BirthDataDraft;
  onChange: (value: BirthDataDraft) => void;
  /** The year list's first year (spec §5: 1900 natal, 1990 compatibility). */
  firstYear: number;
  /** Server field errors; `fieldPath` prefixes this person's fields ('person1.' …). */
  errors?: FieldErrors;
  fieldPath?: string;
}

/** First name, last name, birth date, time, city (with suggestions) and country, all required. */
export function BirthDataFields({
  value,
  onChange,
  firstYear,
  errors = {},
  fieldPath = '',
}: BirthDataFieldsProps) {
  const set = <K extends keyof BirthDataDraft>(key: K, next: BirthDataDraft[K]) =>
    onChange({ ...value, [key]: next });
  const errorOf = (field: string) => errors[`${fieldPath}${field}`];

  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      <Field.Root required invalid={Boolean(errorOf('firstName'))}>
        <Field.Label>First name</Field.Label>
        <Input
          name={`${fieldPath}firstName`}
          autoComplete={fieldPath ? 'off' : 'given-name'}
          maxLength={100}
          value={value.firstName}
          onChange={(event) => set('firstName', event.target.value)}
        />
        <Field.ErrorText>{errorOf('firstName')}</Field.ErrorText>
      </Field.Root>
      <Field.Root required invalid={Boolean(errorOf('lastName'))}>
        <Field.Label>Last name</Field.Label>
        <Input
          name={`${fieldPath}lastName`}
          autoComplete={fieldPath ? 'off' : 'family-name'}
          maxLength={100}
          value={value.lastName}
          onChange={(event) => set('lastName', event.target.value)}
        />
        <Field.ErrorText>{errorOf('lastName')}</Field.ErrorText>
      </Field.Root>
      <BirthDateSelect
        value={value.birthDate}
        onChange={(birthDate) => set('birthDate', birthDate)}
        firstYear={firstYear}
        required
        partialHint="Choose the day, month and year."
      />
      <Field.Root required invalid={Boolean(errorOf('birthTime'))}>
        <Field.Label>Birth time</Field.Label>
        <Input
          type="time"
          name={`${fieldPath}birthTime`}
          value={value.birthTime}
          onChange={(event) => set('birthTime', event.target.value)}
        />
        {errorOf('birthTime') ? (
          <Field.ErrorText>{errorOf('birthTime')}</Field.ErrorText>
        ) : (
          <Field.HelperText>As exact as you know it: it sets the rising sign.</Field.HelperText>
        )}
      </Field.Root>
      <PlaceCombobox
        label="City"
        name={`${fieldPath}city`}
        value={value.city}
        onChange={(city) => onChange({ ...value, city, coordinates: null })}
        onSelect={(place) => onChange(choosePlace(value, place))}
        errorText={errorOf('city')}
        required
      />
      <Field.Root required invalid={Boolean(errorOf('country'))}>
        <Field.Label>Country</Field.Label>
        <Input
          name={`${fieldPath}country`}
          autoComplete={fieldPath ? 'off' : 'country-name'}
          maxLength={120}
          value={value.country}
          onChange={(event) =>
            onChange({ ...value, country: event.target.value, coordinates: null })
          }
        />
        <Field.ErrorText>{errorOf('country')}</Field.ErrorText>
      </Field.Root>
    </SimpleGrid>
  );
}
