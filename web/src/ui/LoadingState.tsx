import { Center, Spinner, Text } from '@chakra-ui/react';

/** The spec's loading text, announced politely to assistive technology. */
export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center role="status" py="20" gap="3" flexDirection="column">
      <Spinner size="lg" color="brand.fg" aria-hidden />
      <Text color="fg.muted">{label}</Text>
    </Center>
  );
}
