import { CHART_FIRST_YEAR } from '@astra/contracts';
import { Alert, Checkbox, Field, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { TextField } from '../../../ui/TextField';
import { CoordinatesFields, CoordinatesToggle } from '../../places/CoordinatesFields';
import { PlaceCombobox } from '../../places/PlaceCombobox';
import { BirthDateSelect } from '../../profile/BirthDateSelect';
import {
  type BirthDataDraft,
  chooseEnteredPlace,
  choosePlace,
  EMPTY_COORDINATES,
  localMeanTimeNote,
  UNKNOWN_TIME_NOTE,
} from './birthDataDraft';
import type { FieldErrors } from './useGenerateReading';

interface BirthDataFieldsProps {
  value: BirthDataDraft;
  onChange: (value: BirthDataDraft) => void;
  /** Server field errors; `fieldPath` prefixes this person's fields ('person1.' …). */
  errors?: FieldErrors;
  fieldPath?: string;
}

/**
 * First name, last name, birth date, time (or "I don't know my birth time"), and the birthplace:
 * city (with suggestions) and country, or, for a place the suggestions lack, its coordinates.
 */
export function BirthDataFields({
  value,
  onChange,
  errors = {},
  fieldPath = '',
}: BirthDataFieldsProps) {
  const set = <K extends keyof BirthDataDraft>(key: K, next: BirthDataDraft[K]) =>
    onChange({ ...value, [key]: next });
  const errorOf = (field: string) => errors[`${fieldPath}${field}`];
  const meanTime = localMeanTimeNote(value);
  const placeNotFound = value.placeNotFound
    ? `We could not find “${value.city.trim()}” from your profile. Choose your birthplace from the suggestions.`
    : undefined;

  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      <TextField
        label="First name"
        name={`${fieldPath}firstName`}
        autoComplete={fieldPath ? 'off' : 'given-name'}
        maxLength={100}
        required
        value={value.firstName}
        onChange={(firstName) => set('firstName', firstName)}
        errorText={errorOf('firstName')}
      />
      <TextField
        label="Last name"
        name={`${fieldPath}lastName`}
        autoComplete={fieldPath ? 'off' : 'family-name'}
        maxLength={100}
        required
        value={value.lastName}
        onChange={(lastName) => set('lastName', lastName)}
        errorText={errorOf('lastName')}
      />
      <BirthDateSelect
        value={value.birthDate}
        onChange={(birthDate) => set('birthDate', birthDate)}
        earliestYear={CHART_FIRST_YEAR}
        required
        partialHint="Choose the day, month and year."
      />
      {/* The checkbox stays outside the time's field: it is its own control, not the time's. */}
      <Stack gap="2">
        <Field.Root
          required={!value.timeUnknown}
          disabled={value.timeUnknown}
          invalid={Boolean(errorOf('birthTime'))}
        >
          <Field.Label>Birth time</Field.Label>
          <Input
            type="time"
            name={`${fieldPath}birthTime`}
            value={value.timeUnknown ? '' : value.birthTime}
            onChange={(event) => set('birthTime', event.target.value)}
          />
          {errorOf('birthTime') ? (
            <Field.ErrorText>{errorOf('birthTime')}</Field.ErrorText>
          ) : (
            <Field.HelperText>As exact as you know it: it sets the rising sign.</Field.HelperText>
          )}
        </Field.Root>
        <Checkbox.Root
          size="sm"
          name={`${fieldPath}timeUnknown`}
          checked={value.timeUnknown}
          onCheckedChange={(event) => set('timeUnknown', event.checked === true)}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>I don’t know my time of birth</Checkbox.Label>
        </Checkbox.Root>
      </Stack>
      {value.timeUnknown && (
        <Alert.Root status="info" role="status" gridColumn={{ md: 'span 2' }}>
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Birth time unknown</Alert.Title>
            <Alert.Description>{UNKNOWN_TIME_NOTE}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {value.entered ? (
        <CoordinatesFields
          fieldPath={fieldPath}
          value={value.entered}
          onChange={(entered) => onChange({ ...value, entered })}
          onFound={(place) => onChange(chooseEnteredPlace(value, place))}
          errors={{
            latitude: errorOf('latitude'),
            longitude: errorOf('longitude'),
          }}
        />
      ) : (
        <>
          <PlaceCombobox
            label="City"
            name={`${fieldPath}city`}
            value={value.city}
            onChange={(city) =>
              onChange({ ...value, city, coordinates: null, placeNotFound: false })
            }
            onSelect={(place) => onChange(choosePlace(value, place))}
            errorText={errorOf('city') ?? placeNotFound}
            suggestOnFocus={value.placeNotFound}
            required
          />
          <TextField
            label="Country"
            name={`${fieldPath}country`}
            autoComplete={fieldPath ? 'off' : 'country-name'}
            maxLength={120}
            required
            value={value.country}
            onChange={(country) => onChange({ ...value, country, coordinates: null })}
            errorText={errorOf('country')}
          />
        </>
      )}
      <CoordinatesToggle
        entered={Boolean(value.entered)}
        onToggle={() =>
          onChange(
            value.entered
              ? { ...value, entered: null, city: '', country: '', coordinates: null }
              : {
                  ...value,
                  entered: EMPTY_COORDINATES,
                  city: '',
                  country: '',
                  coordinates: null,
                  placeNotFound: false,
                },
          )
        }
      />
      {meanTime && (
        <Alert.Root status="info" role="status" gridColumn={{ md: 'span 2' }}>
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Local mean time</Alert.Title>
            <Alert.Description>{meanTime}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </SimpleGrid>
  );
}
