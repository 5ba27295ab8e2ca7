import { Box } from '@chakra-ui/react';
import { useNavigation } from 'react-router';

/** A thin bar while a lazily loaded page downloads, so a click never feels ignored. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Box
      aria-hidden
      position="fixed"
      top="0"
      insetX="0"
      h="3px"
      zIndex="banner"
      bg="brand.solid"
      transformOrigin="left"
      animation="pulse 1s ease-in-out infinite"
    />
  );
}
