import type { PlaceView } from '@astra/contracts';
import { Box, Field, Input, Text, VisuallyHidden } from '@chakra-ui/react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { useGetPlacesQuery } from './placesApi';

export const PLACE_DEBOUNCE_MS = 200;
const MIN_QUERY_LENGTH = 2;

interface PlaceComboboxProps {
  label: string;
  name: string;
  value: string;
  /** The typed text; typing forgets any place chosen before. */
  onChange: (city: string) => void;
  /** A suggestion was chosen: the form fills city and country and keeps the coordinates. */
  onSelect: (place: PlaceView) => void;
  errorText?: string;
  required?: boolean;
  disabled?: boolean;
  /** Open the suggestions for the text as it is when the field gets focus (a place to fix). */
  suggestOnFocus?: boolean;
}

/**
 * A city field with place suggestions from GET /api/places (WAI-ARIA combobox with a listbox
 * popup): arrows move through the suggestions, Enter chooses, Escape closes.
 */
export function PlaceCombobox({
  label,
  name,
  value,
  onChange,
  onSelect,
  errorText,
  required,
  disabled,
  suggestOnFocus,
}: PlaceComboboxProps) {
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(value.trim(), PLACE_DEBOUNCE_MS);
  const { currentData } = useGetPlacesQuery(query, {
    skip: !open || query.length < MIN_QUERY_LENGTH,
  });
  const suggestions = open && query.length >= MIN_QUERY_LENGTH ? (currentData ?? []) : [];
  const expanded = suggestions.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (active < 0) return;
    listRef.current
      ?.querySelector(`[data-index="${active}"]`)
      ?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (place: PlaceView) => {
    onSelect(place);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      if (!expanded) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + suggestions.length + 1) % (suggestions.length + 1));
    } else if (event.key === 'Enter' && expanded && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      choose(suggestions[active]!);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  // ArrowDown past the last suggestion returns to the text (index = length), like a native list.
  const activeOption = expanded && active >= 0 && active < suggestions.length ? active : -1;

  return (
    <Field.Root required={required} invalid={Boolean(errorText)} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <Box position="relative" w="full">
        <Input
          name={name}
          autoComplete="off"
          maxLength={120}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeOption >= 0 ? optionId(activeOption) : undefined}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            if (suggestOnFocus) setOpen(true);
          }}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
        />
        <Box
          as="ul"
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Place suggestions"
          hidden={!expanded}
          position="absolute"
          top="calc(100% + 4px)"
          insetX="0"
          zIndex="dropdown"
          maxH="64"
          overflowY="auto"
          bg="bg.panel"
          borderWidth="1px"
          borderColor="border.emphasized"
          rounded="md"
          boxShadow="lg"
          py="1"
          listStyleType="none"
        >
          {suggestions.map((place, index) => (
            <Box
              as="li"
              key={`${place.label}-${place.latitude}-${place.longitude}`}
              id={optionId(index)}
              data-index={index}
              role="option"
              aria-selected={index === activeOption}
              px="3"
              py="2"
              cursor="pointer"
              bg={index === activeOption ? 'brand.subtle' : undefined}
              _hover={{ bg: 'bg.muted' }}
              // Keep focus in the field: the blur would close the list before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(place)}
            >
              <Text fontSize="sm">{place.label}</Text>
            </Box>
          ))}
        </Box>
      </Box>
      <VisuallyHidden aria-live="polite">
        {expanded
          ? `${suggestions.length} ${suggestions.length === 1 ? 'place' : 'places'} found. Use the arrow keys to choose.`
          : ''}
      </VisuallyHidden>
      {errorText ? (
        <Field.ErrorText>{errorText}</Field.ErrorText>
      ) : (
        <Field.HelperText>Start typing and choose your place from the list.</Field.HelperText>
      )}
    </Field.Root>
  );
}
