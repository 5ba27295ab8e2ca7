import { Box, Text } from '@chakra-ui/react';
import { CircleStar, type LucideIcon, Sparkles, Sword, Wand, Wine } from 'lucide-react';
import { cardFace, type Suit } from './cardFace';
import type { Orientation } from './tarotReading';

const SUIT_ICONS: Record<Suit, LucideIcon> = {
  major: Sparkles,
  wands: Wand,
  cups: Wine,
  swords: Sword,
  pentacles: CircleStar,
};

interface TarotCardFaceProps {
  name: string;
  orientation: Orientation;
  cardId?: string;
  /** Card width; the height follows the 2:3 card ratio. */
  width?: string | Record<string, string>;
  /** Small cards leave the name off the face; it is printed beside them. */
  showName?: boolean;
}

/**
 * A drawn card, drawn with boxes: number or rank, suit symbol and name on a night-sky face.
 * A reversed card is turned 180°. Decorative: the card's name and orientation are text nearby.
 */
export function TarotCardFace({
  name,
  orientation,
  cardId,
  width = '8rem',
  showName = true,
}: TarotCardFaceProps) {
  const face = cardFace(name, cardId);
  const Icon = SUIT_ICONS[face.suit];
  return (
    <Box
      aria-hidden
      w={width}
      aspectRatio="2 / 3"
      flexShrink="0"
      rounded="lg"
      borderWidth="2px"
      borderColor="starlight.border"
      layerStyle="nightSky"
      color="night.fg"
      boxShadow="md"
      p="1.5"
      transform={orientation === 'reversed' ? 'rotate(180deg)' : undefined}
    >
      <Box
        h="full"
        rounded="md"
        borderWidth="1px"
        borderColor="night.accent/60"
        display="flex"
        flexDirection="column"
        alignItems="center"
        justifyContent="space-between"
        py="1.5"
        px="1"
        textAlign="center"
      >
        <Text fontFamily="heading" fontWeight="bold" fontSize="sm" color="night.accent" minH="5">
          {face.mark}
        </Text>
        <Icon size="40%" strokeWidth={1.5} color="var(--chakra-colors-night-accent)" />
        {showName ? (
          <Text fontSize="2xs" lineHeight="short" fontWeight="medium" lineClamp={2}>
            {name}
          </Text>
        ) : (
          <Text
            fontFamily="heading"
            fontWeight="bold"
            fontSize="sm"
            color="night.accent"
            minH="5"
            transform="rotate(180deg)"
          >
            {face.mark}
          </Text>
        )}
      </Box>
    </Box>
  );
}
