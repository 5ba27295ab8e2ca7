import { Field, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { appTitle } from '../readings/readingCatalog';

export const LIBRARY_SEARCH_DEBOUNCE_MS = 300;

interface LibraryFiltersProps {
  search: string;
  appId: number | null;
  apps: { appId: number; appName: string }[];
  onSearch: (search: string) => void;
  onAppChange: (appId: number | null) => void;
}

/** The search box (debounced, over app name and question) and the app filter. */
export function LibraryFilters({
  search,
  appId,
  apps,
  onSearch,
  onAppChange,
}: LibraryFiltersProps) {
  const [typed, setTyped] = useState(search);
  const debounced = useDebouncedValue(typed.trim(), LIBRARY_SEARCH_DEBOUNCE_MS);
  const reported = useRef(search);

  // The address changed under us (back button, 'Clear filters'): show what it says.
  useEffect(() => {
    if (search !== reported.current) {
      reported.current = search;
      setTyped(search);
    }
  }, [search]);

  useEffect(() => {
    if (debounced !== reported.current) {
      reported.current = debounced;
      onSearch(debounced);
    }
  }, [debounced, onSearch]);

  return (
    <Stack
      direction={{ base: 'column', md: 'row' }}
      gap="4"
      role="search"
      aria-label="Your readings"
    >
      <Field.Root flex="2">
        <Field.Label>Search readings</Field.Label>
        <Input
          type="search"
          name="search"
          value={typed}
          maxLength={200}
          placeholder="Search by app or question"
          onChange={(event) => setTyped(event.target.value)}
        />
      </Field.Root>
      <Field.Root flex="1">
        <Field.Label>Filter by app</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            name="app"
            value={appId ? String(appId) : ''}
            onChange={(event) => {
              const value = Number(event.currentTarget.value);
              onAppChange(value >= 1 ? value : null);
            }}
          >
            <option value="">All Apps</option>
            {apps.map((app) => (
              <option key={app.appId} value={app.appId}>
                {appTitle(app.appId, app.appName)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
    </Stack>
  );
}
