import { Field, Fieldset, Grid, NativeSelect } from '@chakra-ui/react';
import { type ReactNode, useMemo } from 'react';
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
  /** The oldest year offered (reading forms); without it, the last 100 years. */
  firstYear?: number;
  required?: boolean;
  /** Shown while only some of the three parts are chosen. */
  partialHint?: string;
}

interface PartSelectProps {
  /** Also the placeholder: 'Day', 'Month' or 'Year'. */
  label: string;
  name: string;
  required?: boolean;
  value: string;
  onChange: (value: string) => void;
  /** The <option>s. */
  children: ReactNode;
}

/** One of the three selectors: day, month or year. */
function PartSelect({ label, name, required, value, onChange, children }: PartSelectProps) {
  return (
    <Field.Root required={required}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          name={name}
          placeholder={label}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        >
          {children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

const SAVED_WHEN_COMPLETE = 'The birth date is saved only once day, month and year are all chosen.';

/** Day / month / year selectors shared by onboarding, the profile form and the reading forms. */
export function BirthDateSelect({
  value,
  onChange,
  disabled,
  firstYear,
  required,
  partialHint = SAVED_WHEN_COMPLETE,
}: BirthDateSelectProps) {
  const years = useMemo(() => {
    const options = yearOptions(new Date(), firstYear);
    // Keep a stored year that is older than the list, so editing never loses it.
    return value.year && !options.includes(value.year) ? [...options, value.year] : options;
  }, [value.year, firstYear]);

  const impossible = isImpossibleDate(value);
  const partial = !isComplete(value) && !isEmpty(value);

  return (
    <Fieldset.Root invalid={impossible} disabled={disabled} gridColumn={{ md: 'span 2' }}>
      <Fieldset.Legend fontWeight="medium" fontSize="sm">
        Birth date
      </Fieldset.Legend>
      <Grid templateColumns="minmax(5rem, 1fr) minmax(0, 2fr) minmax(6rem, 1.3fr)" gap="2">
        <PartSelect
          label="Day"
          name="birthDay"
          required={required}
          value={value.day}
          onChange={(day) => onChange({ ...value, day })}
        >
          {DAY_OPTIONS.map((day) => (
            <option key={day} value={day}>
              {day}
            </option>
          ))}
        </PartSelect>
        <PartSelect
          label="Month"
          name="birthMonth"
          required={required}
          value={value.month}
          onChange={(month) => onChange({ ...value, month })}
        >
          {MONTH_OPTIONS.map((month) => (
            <option key={month.value} value={month.value}>
              {month.label}
            </option>
          ))}
        </PartSelect>
        <PartSelect
          label="Year"
          name="birthYear"
          required={required}
          value={value.year}
          onChange={(year) => onChange({ ...value, year })}
        >
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
        </PartSelect>
      </Grid>
      {impossible ? (
        <Fieldset.ErrorText>That day does not exist in the chosen month.</Fieldset.ErrorText>
      ) : (
        partial && <Fieldset.HelperText>{partialHint}</Fieldset.HelperText>
      )}
    </Fieldset.Root>
  );
}
