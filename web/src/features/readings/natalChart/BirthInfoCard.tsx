import { DataList, Heading } from '@chakra-ui/react';
import { Surface } from '../../../ui/Surface';
import type { NatalView } from './natalReading';

/** Spec §2: the Birth Information card (Date, Time, City, Country). */
export function BirthInfoCard({ birth }: { birth: NatalView['birth'] }) {
  const rows: [string, string][] = [
    ['Date', birth.date],
    ['Time', birth.time],
    ['City', birth.city],
    ['Country', birth.country],
  ];
  return (
    <Surface as="section" aria-labelledby="birth-info-heading" gap="4">
      <Heading as="h2" size="md" id="birth-info-heading">
        Birth Information
      </Heading>
      <DataList.Root
        orientation="vertical"
        size="md"
        display="grid"
        gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }}
        gap="4"
      >
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel color="fg.muted">{label}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium" wordBreak="break-word">
              {value}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Surface>
  );
}
