import type { BillingType } from '@astra/contracts';
import { chakra, HStack } from '@chakra-ui/react';
import { useId, useLayoutEffect, useRef } from 'react';

const OPTIONS: { value: BillingType; label: string }[] = [
  { value: 'subscription', label: 'Monthly' },
  { value: 'one_time', label: 'One-time' },
];

interface BillingToggleProps {
  value: BillingType;
  onChange: (value: BillingType) => void;
}

/**
 * Monthly or one-time, as native radio buttons styled as a segmented control: arrow keys,
 * focus and the checked state come from the browser. On a page drawn on the server they work before
 * the scripts run: React takes the page over keeping the browser's checked radio, and the
 * choice made before is then reported as a change, so it is never lost.
 */
export function BillingToggle({ value, onChange }: BillingToggleProps) {
  const name = useId();
  const group = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as React takes the page over
  useLayoutEffect(() => {
    const checked = group.current?.querySelector<HTMLInputElement>('input:checked')?.value;
    const chosen = OPTIONS.find((option) => option.value === checked)?.value;
    if (chosen && chosen !== value) onChange(chosen);
  }, []);
  return (
    <HStack
      ref={group}
      role="radiogroup"
      aria-label="Billing period"
      display="inline-flex"
      gap="1"
      p="1"
      rounded="full"
      bg="bg.muted"
      borderWidth="1px"
      borderColor="border"
    >
      {OPTIONS.map((option) => {
        const checked = option.value === value;
        return (
          <chakra.label
            key={option.value}
            position="relative"
            px={{ base: '4', md: '6' }}
            py="2"
            rounded="full"
            cursor="pointer"
            fontWeight="semibold"
            fontSize="sm"
            bg={checked ? 'brand.solid' : 'transparent'}
            color={checked ? 'brand.contrast' : 'fg'}
            transitionProperty="background-color, color"
            transitionDuration="fast"
            _hover={checked ? undefined : { bg: 'bg.emphasized' }}
            css={{
              '&:has(input:focus-visible)': {
                outlineWidth: '2px',
                outlineStyle: 'solid',
                outlineColor: 'brand.focusRing',
                outlineOffset: '2px',
              },
            }}
          >
            <chakra.input
              type="radio"
              name={name}
              value={option.value}
              checked={checked}
              onChange={() => onChange(option.value)}
              // Invisible but covering the whole segment: a click anywhere is a click on it.
              position="absolute"
              inset="0"
              w="full"
              h="full"
              m="0"
              opacity="0"
              cursor="pointer"
            />
            {option.label}
          </chakra.label>
        );
      })}
    </HStack>
  );
}
