import { Badge, HStack, List, Stack, Text } from '@chakra-ui/react';
import { TarotCardFace } from '../tarot/TarotCardFace';
import { orientationLabel } from '../tarot/TarotCardTile';
import type { CelticCrossCard } from './celticCrossReading';

/** The ten positions, in order, with the card, its orientation and its meaning there. */
export function CelticCrossList({ cards }: { cards: CelticCrossCard[] }) {
  return (
    <List.Root as="ol" listStyleType="none" gap="4">
      {cards.map((card) => (
        <List.Item key={card.number} display="flex" gap="4" alignItems="flex-start">
          <TarotCardFace
            name={card.name}
            orientation={card.orientation}
            cardId={card.cardId}
            width="4.5rem"
            showName={false}
          />
          <Stack gap="1" minW="0">
            <Text textStyle="eyebrow" color="starlight.fg">
              {card.number}. {card.position}
            </Text>
            <HStack gap="2" wrap="wrap">
              <Text as="h3" fontFamily="heading" fontWeight="semibold" fontSize="lg">
                {card.name}
              </Text>
              <Badge
                colorPalette={card.orientation === 'reversed' ? 'orange' : 'green'}
                variant="subtle"
              >
                {orientationLabel(card)}
              </Badge>
            </HStack>
            {card.meaning && (
              <Text fontSize="sm" color="fg.muted">
                {card.meaning}
              </Text>
            )}
          </Stack>
        </List.Item>
      ))}
    </List.Root>
  );
}
