import { formatZodiacal } from '@astra/contracts';
import { Table, Text, VisuallyHidden } from '@chakra-ui/react';
import type { WheelPoint } from './chartModel';

interface PositionsTableProps {
  points: WheelPoint[];
  activeKey: string | null;
  onActiveChange: (key: string | null) => void;
}

/**
 * Every point of the wheel as text. Hovering or focusing a row highlights its glyph in the
 * wheel, the keyboard's way to the wheel's hover labels.
 */
export function PositionsTable({ points, activeKey, onActiveChange }: PositionsTableProps) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md">
      <Table.Root size="sm" interactive>
        <Table.Caption captionSide="top" srOnly>
          Planet and point positions
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader scope="col">Point</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">Position</Table.ColumnHeader>
            <Table.ColumnHeader scope="col" textAlign="end">
              House
            </Table.ColumnHeader>
            <Table.ColumnHeader scope="col" hideBelow="sm">
              Motion
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body onMouseLeave={() => onActiveChange(null)}>
          {points.map((point) => (
            <Table.Row
              key={point.key}
              tabIndex={0}
              aria-label={point.label}
              data-active={point.key === activeKey || undefined}
              bg={point.key === activeKey ? 'brand.subtle' : undefined}
              onMouseEnter={() => onActiveChange(point.key)}
              onFocus={() => onActiveChange(point.key)}
              onBlur={() => onActiveChange(null)}
              _focusVisible={{
                outline: '2px solid',
                outlineColor: 'brand.focusRing',
                outlineOffset: '-2px',
              }}
            >
              <Table.Cell whiteSpace="nowrap">
                <Text
                  as="span"
                  aria-hidden
                  display="inline-block"
                  w="7"
                  fontFamily="'DejaVu Sans', 'Segoe UI Symbol', sans-serif"
                >
                  {point.glyph}
                </Text>
                {point.name}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {formatZodiacal(point.longitude)}
                {point.retrograde && (
                  <Text as="span" hideFrom="sm">
                    {' '}
                    ℞<VisuallyHidden> retrograde</VisuallyHidden>
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell textAlign="end">{point.house ?? '–'}</Table.Cell>
              <Table.Cell hideBelow="sm">{point.retrograde ? 'Retrograde ℞' : 'Direct'}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
