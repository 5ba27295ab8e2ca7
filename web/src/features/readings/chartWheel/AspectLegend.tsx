import { HStack, List, Text } from '@chakra-ui/react';
import { ASPECT_STYLES, type AspectType } from './chartSymbols';

const ORDER: AspectType[] = ['conjunction', 'opposition', 'square', 'trine', 'sextile'];

/** What the aspect lines' colours and dashes mean. */
export function AspectLegend() {
  return (
    <List.Root
      display="flex"
      flexWrap="wrap"
      justifyContent="center"
      gap="4"
      listStyleType="none"
      fontSize="sm"
      aria-label="Aspect line colours"
    >
      {ORDER.map((type) => {
        const style = ASPECT_STYLES[type];
        return (
          <List.Item key={type}>
            <HStack gap="2">
              <svg width="28" height="8" aria-hidden>
                <line
                  x1="0"
                  y1="4"
                  x2="28"
                  y2="4"
                  stroke={style.color}
                  strokeWidth="3"
                  strokeDasharray={style.dash ? '6 4' : undefined}
                />
              </svg>
              <Text as="span">
                {style.label}
                {style.dash ? ' (dashed)' : ''}
              </Text>
            </HStack>
          </List.Item>
        );
      })}
    </List.Root>
  );
}
