import type { PlaceView } from '@astra/contracts';
import { Alert, Button, Field, Input, SimpleGrid, Spinner, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import {
  coordinateErrors,
  type EnteredCoordinates,
  parsedCoordinates,
} from '../readings/form/birthDataDraft';
import { PLACE_DEBOUNCE_MS } from './PlaceCombobox';
import { useGetPlaceAtQuery } from './placesApi';

interface CoordinatesFieldsProps {
  /** Prefix of the field names ('person1.' …). */
  fieldPath: string;
  value: EnteredCoordinates;
  onChange: (value: EnteredCoordinates) => void;
  /** The place the server found at the coordinates (null while none is known). */
  onFound: (place: PlaceView | null) => void;
  /** Server field errors for `latitude` / `longitude`. */
  errors: { latitude?: string; longitude?: string };
}

const key = (entered: EnteredCoordinates) => {
  const at = parsedCoordinates(entered);
  return at ? { ...at, label: entered.label } : null;
};

/**
 * A birthplace the suggestions lack, typed as decimal coordinates with an optional name. The
 * server finds its time zone (and country) and it is shown here before anything is bought.
 */
export function CoordinatesFields({
  fieldPath,
  value,
  onChange,
  onFound,
  errors,
}: CoordinatesFieldsProps) {
  const typed = coordinateErrors(value);
  const wanted = useDebouncedValue(JSON.stringify(key(value)), PLACE_DEBOUNCE_MS);
  const query = JSON.parse(wanted) as ReturnType<typeof key>;
  const { currentData, isFetching, isError } = useGetPlaceAtQuery(query ?? skipToken);
  const current = JSON.stringify(key(value)) === wanted && query !== null;
  const found = current && currentData ? currentData : null;

  // The draft follows what the server found for the coordinates as they are now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: onFound is new on every render of the form; the place found is what changes it.
  useEffect(() => {
    onFound(found);
  }, [found]);

  const set = (field: keyof EnteredCoordinates, next: string) =>
    onChange({ ...value, [field]: next });
  const latitudeError = typed.latitude ?? errors.latitude;
  const longitudeError = typed.longitude ?? errors.longitude;

  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" gridColumn={{ md: 'span 2' }}>
      <CoordinateField
        label="Latitude"
        name={`${fieldPath}latitude`}
        placeholder="47.5957"
        help="Decimal degrees, north positive (south negative)."
        value={value.latitude}
        error={latitudeError}
        onChange={(next) => set('latitude', next)}
      />
      <CoordinateField
        label="Longitude"
        name={`${fieldPath}longitude`}
        placeholder="9.3257"
        help="Decimal degrees, east positive (west negative)."
        value={value.longitude}
        error={longitudeError}
        onChange={(next) => set('longitude', next)}
      />
      <Field.Root>
        <Field.Label>Place name (optional)</Field.Label>
        <Input
          name={`${fieldPath}placeLabel`}
          autoComplete="off"
          maxLength={120}
          placeholder="Kesswil"
          value={value.label}
          onChange={(event) => set('label', event.target.value)}
        />
      </Field.Root>
      <Field.Root>
        <Field.Label>Time zone</Field.Label>
        {found ? (
          <Alert.Root status="info" role="status" aria-label="Time zone of the coordinates">
            <Alert.Content>
              <Alert.Title>{found.timezone}</Alert.Title>
              <Alert.Description>Found from the coordinates: {found.label}.</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : query && (isFetching || !current) ? (
          <Spinner size="sm" aria-label="Finding the time zone" />
        ) : (
          <Text color={isError ? 'fg.error' : 'fg.muted'} fontSize="sm">
            {isError
              ? 'The time zone could not be found. Check the coordinates and try again.'
              : 'Shown here once latitude and longitude are filled in.'}
          </Text>
        )}
      </Field.Root>
    </SimpleGrid>
  );
}

interface CoordinateFieldProps {
  label: string;
  name: string;
  placeholder: string;
  /** How to type it, shown while there is no error. */
  help: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

function CoordinateField({
  label,
  name,
  placeholder,
  help,
  value,
  error,
  onChange,
}: CoordinateFieldProps) {
  return (
    <Field.Root required invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input
        name={name}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : (
        <Field.HelperText>{help}</Field.HelperText>
      )}
    </Field.Root>
  );
}

/** The link between the place suggestions and typed coordinates, on every birthplace form. */
export function CoordinatesToggle({
  entered,
  disabled,
  onToggle,
}: {
  /** Whether coordinates are being typed now. */
  entered: boolean;
  disabled?: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      variant="plain"
      size="sm"
      justifySelf="start"
      px="0"
      color="fg.muted"
      textDecoration="underline"
      gridColumn={{ md: 'span 2' }}
      disabled={disabled}
      onClick={onToggle}
    >
      {entered
        ? 'Search the list of places instead'
        : 'Birthplace not in the list? Enter its coordinates'}
    </Button>
  );
}
