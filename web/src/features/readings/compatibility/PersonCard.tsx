import { DataList, Heading } from '@chakra-ui/react';
import { Surface } from '../../../ui/Surface';
import {
  type PersonView,
  personBirthDate,
  personBirthTime,
  personName,
} from './compatibilityReading';

/** One person of the reading: name, birth date, time and place (spec §2 and §5 rules). */
export function PersonCard({ person, number }: { person: PersonView; number: 1 | 2 }) {
  const name = personName(person, number);
  const rows: [string, string][] = [
    ['Birth date', personBirthDate(person.birthDate)],
    [
      'Birth time',
      person.timeUnknown ? 'Unknown (chart for 12:00 noon)' : personBirthTime(person.birthTime),
    ],
    ['City', person.city?.trim() || 'Unknown'],
    ['Country', person.country?.trim() || 'Unknown'],
  ];
  return (
    <Surface as="section" aria-label={`Person ${number}: ${name}`} gap="4">
      <Heading as="h3" size="md">
        {name}
      </Heading>
      <DataList.Root orientation="horizontal" size="sm">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel color="fg.muted" minW="24">
              {label}
            </DataList.ItemLabel>
            <DataList.ItemValue wordBreak="break-word">{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Surface>
  );
}
