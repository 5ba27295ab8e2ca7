import { SimpleGrid, Text } from '@chakra-ui/react';
import { Surface } from '../../../ui/Surface';
import type { LifePathView } from './lifePathReading';
import { LIFE_PATH_NUMBERS, NUMBER_MEANINGS } from './numberMeanings';

/** The three numbers, large, each with what it measures and what the number means. */
export function NumberCards({ view }: { view: LifePathView }) {
  return (
    <SimpleGrid as="ul" columns={{ base: 1, md: 3 }} gap="4" listStyleType="none">
      {LIFE_PATH_NUMBERS.map(({ key, label, role }) => {
        const value = view[key];
        const meaning = NUMBER_MEANINGS[value];
        return (
          <Surface as="li" key={key} tone="glow" alignItems="center" textAlign="center" gap="2">
            <Text as="h2" textStyle="eyebrow" color="starlight.fg">
              {label}
            </Text>
            <Text
              fontFamily="heading"
              fontWeight="bold"
              fontSize={{ base: '5xl', md: '6xl' }}
              lineHeight="1"
              color="brand.fg"
            >
              {value}
            </Text>
            {meaning && (
              <>
                <Text fontWeight="semibold">{meaning.title}</Text>
                <Text fontSize="sm" color="fg.muted">
                  {meaning.keywords}
                </Text>
              </>
            )}
            <Text fontSize="xs" color="fg.muted">
              {role}
            </Text>
          </Surface>
        );
      })}
    </SimpleGrid>
  );
}
