import { HStack, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

/** A four-pointed star: the product mark, drawn inline so it needs no request. */
export function StarMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill="var(--chakra-colors-navy-900)" />
      <path
        d="M16 4 C17 12 20 15 28 16 C20 17 17 20 16 28 C15 20 12 17 4 16 C12 15 15 12 16 4 Z"
        fill="var(--chakra-colors-gold-300)"
      />
    </svg>
  );
}

export function Logo() {
  return (
    <Link asChild aria-label="Astra home" _hover={{ textDecoration: 'none' }} rounded="md">
      <RouterLink to="/">
        <HStack gap="2">
          <StarMark />
          <Text as="span" fontFamily="heading" fontSize="xl" fontWeight="semibold" color="fg">
            Astra
          </Text>
        </HStack>
      </RouterLink>
    </Link>
  );
}
