import { Field, Input, SimpleGrid } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { BirthDateSelect } from './BirthDateSelect';
import type { ProfileDraft } from './profileDraft';

interface ProfileFormFieldsProps {
  draft: ProfileDraft;
  onChange: (draft: ProfileDraft) => void;
  disabled?: boolean;
  /** Rendered between the names and the birth data (the profile page puts the e-mail here). */
  afterNames?: ReactNode;
}

/** Names and birth data: the same fields in onboarding and in the profile's edit mode. */
export function ProfileFormFields({
  draft,
  onChange,
  disabled,
  afterNames,
}: ProfileFormFieldsProps) {
  const set = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) =>
    onChange({ ...draft, [key]: value });

  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      <Field.Root disabled={disabled}>
        <Field.Label>First name</Field.Label>
        <Input
          name="firstName"
          autoComplete="given-name"
          maxLength={100}
          value={draft.firstName}
          onChange={(event) => set('firstName', event.target.value)}
        />
      </Field.Root>
      <Field.Root disabled={disabled}>
        <Field.Label>Last name</Field.Label>
        <Input
          name="lastName"
          autoComplete="family-name"
          maxLength={100}
          value={draft.lastName}
          onChange={(event) => set('lastName', event.target.value)}
        />
      </Field.Root>
      {afterNames}
      <BirthDateSelect
        value={draft.birthDate}
        onChange={(value) => set('birthDate', value)}
        disabled={disabled}
      />
      <Field.Root disabled={disabled}>
        <Field.Label>Birth time (optional)</Field.Label>
        <Input
          type="time"
          name="birthTime"
          value={draft.birthTime}
          onChange={(event) => set('birthTime', event.target.value)}
        />
        <Field.HelperText>As exact as you know it: it sets your rising sign.</Field.HelperText>
      </Field.Root>
      <Field.Root disabled={disabled}>
        <Field.Label>Birth city</Field.Label>
        <Input
          name="birthCity"
          autoComplete="address-level2"
          maxLength={120}
          value={draft.birthCity}
          onChange={(event) => set('birthCity', event.target.value)}
        />
      </Field.Root>
      <Field.Root disabled={disabled}>
        <Field.Label>Birth country</Field.Label>
        <Input
          name="birthCountry"
          autoComplete="country-name"
          maxLength={120}
          value={draft.birthCountry}
          onChange={(event) => set('birthCountry', event.target.value)}
        />
      </Field.Root>
    </SimpleGrid>
  );
}
