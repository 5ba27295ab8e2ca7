import type { BillingType } from '@astra/contracts';
import { chakra, HStack } from '@chakra-ui/react';
import { useId } from 'react';

const OPTIONS: { value: BillingType; label: string }[] = [
  { value: 'subscription', label: 'Monthly' },
  { value: 'one_time', label: 'One-time' },
];

interface BillingToggleProps {
  value: BillingType;
  onChange: (value: BillingType) => void;
  disabled?: boolean;
}

/**
 * Monthly or one-time, as native radio buttons styled as a segmented control: arrow keys,
 * focus and the checked state come from the browser.
 */
export function BillingToggle({ value, onChange, disabled = false }: BillingToggleProps) {
  const name = useId();
  return (
    <HStack
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
              disabled={disabled}
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
