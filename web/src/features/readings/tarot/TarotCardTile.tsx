import { Badge, Stack, Text } from '@chakra-ui/react';
import { TarotCardFace } from './TarotCardFace';
import type { TarotCardView } from './tarotReading';

export const orientationLabel = (card: Pick<TarotCardView, 'orientation'>) =>
  card.orientation === 'reversed' ? 'Reversed' : 'Upright';

/** One card of a spread: its position, the drawn card, name, orientation and meaning. */
export function TarotCardTile({ card }: { card: TarotCardView }) {
  return (
    <Stack
      as="li"
      direction={{ base: 'row', sm: 'column' }}
      align={{ base: 'flex-start', sm: 'center' }}
      textAlign={{ sm: 'center' }}
      gap="3"
    >
      <TarotCardFace
        name={card.name}
        orientation={card.orientation}
        cardId={card.cardId}
        width={{ base: '6rem', sm: '8rem' }}
      />
      <Stack gap="1.5" align={{ base: 'flex-start', sm: 'center' }} minW="0">
        <Text textStyle="eyebrow" color="starlight.fg">
          {card.position}
        </Text>
        <Text as="h3" fontFamily="heading" fontWeight="semibold" fontSize="lg">
          {card.name}
        </Text>
        <Badge colorPalette={card.orientation === 'reversed' ? 'orange' : 'green'} variant="subtle">
          {orientationLabel(card)}
        </Badge>
        {card.meaning && (
          <Text fontSize="sm" color="fg.muted">
            {card.meaning}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
