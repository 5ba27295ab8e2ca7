import { CHART_FIRST_YEAR, YEAR_LIST_FIRST_YEAR } from '@astra/contracts';
import { Button, Field, Fieldset, Grid, Input, NativeSelect } from '@chakra-ui/react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  type BirthDateParts,
  DAY_OPTIONS,
  isComplete,
  isEmpty,
  isImpossibleDate,
  MONTH_OPTIONS,
  typedYear,
  yearOptions,
} from './birthDateParts';

interface BirthDateSelectProps {
  value: BirthDateParts;
  onChange: (value: BirthDateParts) => void;
  disabled?: boolean;
  /**
   * The earliest year that may be typed below the list (which starts in 1900): 1800 for charts
   * and the profile (the ephemeris files begin then), 1 for numerology.
   */
  earliestYear?: number;
  required?: boolean;
  /** Shown while only some of the three parts are chosen. */
  partialHint?: string;
}

/** The year list's last option: type a year before the list. */
const EARLIER = 'earlier';
const beforeList = (year: string) => Boolean(year) && Number(year) < YEAR_LIST_FIRST_YEAR;

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
  earliestYear = CHART_FIRST_YEAR,
  required,
  partialHint = SAVED_WHEN_COMPLETE,
}: BirthDateSelectProps) {
  const years = useMemo(() => yearOptions(new Date()), []);
  // A year before the list is typed; a stored or imported one opens the typed field with it.
  const [typing, setTyping] = useState(beforeList(value.year));
  const [typed, setTyped] = useState(beforeList(value.year) ? String(Number(value.year)) : '');
  useEffect(() => {
    if (beforeList(value.year)) {
      setTyping(true);
      setTyped(String(Number(value.year)));
    }
  }, [value.year]);

  const typedInvalid = typing && typed.trim() !== '' && !value.year;
  const impossible = isImpossibleDate(value);
  const partial = !isComplete(value) && !isEmpty(value);
  const range = `${earliestYear} to ${YEAR_LIST_FIRST_YEAR - 1}`;

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
          value={typing ? EARLIER : value.year}
          onChange={(year) => {
            setTyping(year === EARLIER);
            setTyped('');
            onChange({ ...value, year: year === EARLIER ? '' : year });
          }}
        >
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
          <option value={EARLIER}>Before {YEAR_LIST_FIRST_YEAR}…</option>
        </PartSelect>
      </Grid>
      {typing && (
        <Field.Root invalid={typedInvalid} required={required}>
          <Field.Label fontSize="xs" color="fg.muted">
            Year before {YEAR_LIST_FIRST_YEAR}
          </Field.Label>
          <Grid templateColumns="minmax(6rem, 10rem) auto" gap="2" alignItems="center">
            <Input
              name="birthYearTyped"
              inputMode="numeric"
              autoComplete="bday-year"
              maxLength={4}
              placeholder={String(YEAR_LIST_FIRST_YEAR - 50)}
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                const year = typedYear(event.target.value, earliestYear, YEAR_LIST_FIRST_YEAR);
                onChange({ ...value, year: year ?? '' });
              }}
            />
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setTyping(false);
                setTyped('');
                onChange({ ...value, year: '' });
              }}
            >
              Back to the list
            </Button>
          </Grid>
          {typedInvalid ? (
            <Field.ErrorText>Enter a year from {range}.</Field.ErrorText>
          ) : (
            <Field.HelperText>Type the year, from {range}.</Field.HelperText>
          )}
        </Field.Root>
      )}
      {impossible ? (
        <Fieldset.ErrorText>That day does not exist in the chosen month.</Fieldset.ErrorText>
      ) : (
        partial && <Fieldset.HelperText>{partialHint}</Fieldset.HelperText>
      )}
    </Fieldset.Root>
  );
}
