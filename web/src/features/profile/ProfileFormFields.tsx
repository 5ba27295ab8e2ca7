import { Checkbox, Field, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { TextField } from '../../ui/TextField';
import { CoordinatesFields, CoordinatesToggle } from '../places/CoordinatesFields';
import { PlaceCombobox } from '../places/PlaceCombobox';
import { EMPTY_COORDINATES } from '../readings/form/birthDataDraft';
import { BirthDateSelect } from './BirthDateSelect';
import { chooseBirthPlace, chooseEnteredPlace, type ProfileDraft } from './profileDraft';

interface ProfileFormFieldsProps {
  draft: ProfileDraft;
  onChange: (draft: ProfileDraft) => void;
  disabled?: boolean;
  /** Rendered between the names and the birth data (the profile page puts the e-mail here). */
  afterNames?: ReactNode;
  /** The saved city, which nobody found: the form asks for a choice from the suggestions. */
  savedCityNotFound?: string | null;
}

/** Names and birth data: the same fields in onboarding and in the profile's edit mode. */
export function ProfileFormFields({
  draft,
  onChange,
  disabled,
  afterNames,
  savedCityNotFound,
}: ProfileFormFieldsProps) {
  const notFound =
    savedCityNotFound && !draft.birthPlace && draft.birthCity.trim() === savedCityNotFound
      ? `We could not find “${savedCityNotFound}”. Choose your birthplace from the suggestions so that readings can use it.`
      : undefined;
  const set = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) =>
    onChange({ ...draft, [key]: value });

  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      <TextField
        label="First name"
        name="firstName"
        autoComplete="given-name"
        maxLength={100}
        disabled={disabled}
        value={draft.firstName}
        onChange={(value) => set('firstName', value)}
      />
      <TextField
        label="Last name"
        name="lastName"
        autoComplete="family-name"
        maxLength={100}
        disabled={disabled}
        value={draft.lastName}
        onChange={(value) => set('lastName', value)}
      />
      {afterNames}
      <BirthDateSelect
        value={draft.birthDate}
        onChange={(value) => set('birthDate', value)}
        disabled={disabled}
      />
      <Stack gap="2">
        <Field.Root disabled={disabled || draft.birthTimeUnknown}>
          <Field.Label>Birth time (optional)</Field.Label>
          <Input
            type="time"
            name="birthTime"
            value={draft.birthTimeUnknown ? '' : draft.birthTime}
            onChange={(event) => set('birthTime', event.target.value)}
          />
          <Field.HelperText>
            {draft.birthTimeUnknown
              ? 'Charts will be drawn for 12:00 noon, without rising sign or houses.'
              : 'As exact as you know it: it sets your rising sign.'}
          </Field.HelperText>
        </Field.Root>
        <Checkbox.Root
          size="sm"
          name="birthTimeUnknown"
          disabled={disabled}
          checked={draft.birthTimeUnknown}
          onCheckedChange={(event) => set('birthTimeUnknown', event.checked === true)}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>I don’t know my time of birth</Checkbox.Label>
        </Checkbox.Root>
      </Stack>
      {draft.entered ? (
        <CoordinatesFields
          fieldPath=""
          value={draft.entered}
          onChange={(entered) => onChange({ ...draft, entered })}
          onFound={(place) => onChange(chooseEnteredPlace(draft, place))}
          errors={{}}
        />
      ) : (
        <>
          <PlaceCombobox
            label="Birth city"
            name="birthCity"
            disabled={disabled}
            value={draft.birthCity}
            onChange={(birthCity) => onChange({ ...draft, birthCity, birthPlace: null })}
            onSelect={(place) => onChange(chooseBirthPlace(draft, place))}
            errorText={notFound}
            suggestOnFocus={Boolean(notFound)}
          />
          <TextField
            label="Birth country"
            name="birthCountry"
            autoComplete="country-name"
            maxLength={120}
            disabled={disabled}
            value={draft.birthCountry}
            onChange={(birthCountry) => onChange({ ...draft, birthCountry, birthPlace: null })}
          />
        </>
      )}
      <CoordinatesToggle
        entered={Boolean(draft.entered)}
        disabled={disabled}
        onToggle={() =>
          onChange({
            ...draft,
            entered: draft.entered ? null : EMPTY_COORDINATES,
            birthCity: '',
            birthCountry: '',
            birthPlace: null,
          })
        }
      />
    </SimpleGrid>
  );
}
