import { Box, Grid, Stack, Text } from '@chakra-ui/react';
import { TarotCardFace } from '../tarot/TarotCardFace';
import type { CelticCrossCard } from './celticCrossReading';

/**
 * The spread as it lies on the table: the cross (1 covered by 2, 3 below, 4 behind, 5 above,
 * 6 before) and the staff (7 at the bottom up to 10). Half-row steps offset the staff from the
 * cross. A picture of the list below, so it is hidden from assistive technology.
 */
const AREAS = `
  ".  .  .  s10"
  ".  c5 .  s10"
  ".  c5 .  s9"
  "c4 c1 c6 s9"
  "c4 c1 c6 s8"
  ".  c3 .  s8"
  ".  c3 .  s7"
  ".  .  .  s7"`;

const AREA_OF: Record<number, string> = {
  1: 'c1',
  3: 'c3',
  4: 'c4',
  5: 'c5',
  6: 'c6',
  7: 's7',
  8: 's8',
  9: 's9',
  10: 's10',
};

const shortPosition = (position: string) => position.split(/ [/(]/)[0]!;

function Caption({ card }: { card: CelticCrossCard }) {
  return (
    <Text fontSize="xs" lineHeight="short" textAlign="center" maxW="9rem">
      <Text as="span" fontWeight="bold" color="starlight.fg">
        {card.number}. {shortPosition(card.position)}
      </Text>
      <br />
      {card.name}
    </Text>
  );
}

export function CelticCrossLayout({ cards }: { cards: CelticCrossCard[] }) {
  const byNumber = new Map(cards.map((card) => [card.number, card]));
  const crossing = byNumber.get(2);

  return (
    <Grid
      aria-hidden
      hideBelow="lg"
      templateAreas={AREAS}
      templateColumns="repeat(3, 9rem) 9rem"
      columnGap="6"
      rowGap="1"
      justifyContent="center"
      alignItems="center"
      py="4"
    >
      {[...byNumber.entries()]
        .filter(([number]) => AREA_OF[number])
        .map(([number, card]) => (
          <Stack key={number} gridArea={AREA_OF[number]} align="center" gap="2">
            <Box position="relative">
              <TarotCardFace
                name={card.name}
                orientation={card.orientation}
                cardId={card.cardId}
                width="5rem"
                showName={false}
              />
              {number === 1 && crossing && (
                <Box
                  position="absolute"
                  inset="0"
                  display="flex"
                  alignItems="center"
                  justifyContent="center"
                  transform="rotate(90deg)"
                >
                  <TarotCardFace
                    name={crossing.name}
                    orientation={crossing.orientation}
                    cardId={crossing.cardId}
                    width="5rem"
                    showName={false}
                  />
                </Box>
              )}
            </Box>
            <Caption card={card} />
            {number === 1 && crossing && <Caption card={crossing} />}
          </Stack>
        ))}
    </Grid>
  );
}
