import { Field, Fieldset, Grid, NativeSelect } from '@chakra-ui/react';
import { useMemo } from 'react';
import {
  type BirthDateParts,
  DAY_OPTIONS,
  isComplete,
  isEmpty,
  isImpossibleDate,
  MONTH_OPTIONS,
  yearOptions,
} from './birthDateParts';

interface BirthDateSelectProps {
  value: BirthDateParts;
  onChange: (value: BirthDateParts) => void;
  disabled?: boolean;
}

/** Day / month / year selectors shared by onboarding and the profile form. */
export function BirthDateSelect({ value, onChange, disabled }: BirthDateSelectProps) {
  const years = useMemo(() => {
    const options = yearOptions();
    // Keep a stored year that is older than the list, so editing never loses it.
    return value.year && !options.includes(value.year) ? [...options, value.year] : options;
  }, [value.year]);

  const impossible = isImpossibleDate(value);
  const partial = !isComplete(value) && !isEmpty(value);

  return (
    <Fieldset.Root invalid={impossible} disabled={disabled} gridColumn={{ md: 'span 2' }}>
      <Fieldset.Legend fontWeight="medium" fontSize="sm">
        Birth date
      </Fieldset.Legend>
      <Grid templateColumns="minmax(5rem, 1fr) minmax(0, 2fr) minmax(6rem, 1.3fr)" gap="2">
        <Field.Root>
          <Field.Label fontSize="xs" color="fg.muted">
            Day
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="birthDay"
              placeholder="Day"
              value={value.day}
              onChange={(event) => onChange({ ...value, day: event.currentTarget.value })}
            >
              {DAY_OPTIONS.map((day) => (
                <option key={day} value={day}>
                  {day}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root>
          <Field.Label fontSize="xs" color="fg.muted">
            Month
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="birthMonth"
              placeholder="Month"
              value={value.month}
              onChange={(event) => onChange({ ...value, month: event.currentTarget.value })}
            >
              {MONTH_OPTIONS.map((month) => (
                <option key={month.value} value={month.value}>
                  {month.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root>
          <Field.Label fontSize="xs" color="fg.muted">
            Year
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="birthYear"
              placeholder="Year"
              value={value.year}
              onChange={(event) => onChange({ ...value, year: event.currentTarget.value })}
            >
              {years.map((year) => (
                <option key={year} value={year}>
                  {year}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Grid>
      {impossible ? (
        <Fieldset.ErrorText>That day does not exist in the chosen month.</Fieldset.ErrorText>
      ) : (
        partial && (
          <Fieldset.HelperText>
            The birth date is saved only once day, month and year are all chosen.
          </Fieldset.HelperText>
        )
      )}
    </Fieldset.Root>
  );
}
