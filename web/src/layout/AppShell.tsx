import { Box, Flex, SkipNavContent, SkipNavLink } from '@chakra-ui/react';
import { Outlet, ScrollRestoration } from 'react-router';
import { PendingPurchaseResume } from '../features/pricing/PendingPurchaseResume';
import { Footer } from './Footer';
import { Header } from './Header';
import { NavigationProgress } from './NavigationProgress';
import { useStopAudioOnLeavingApp } from './useStopAudioOnLeavingApp';

/** Header, main and footer around every page. */
export function AppShell() {
  useStopAudioOnLeavingApp();
  return (
    <Flex direction="column" minH="100dvh">
      <SkipNavLink zIndex="skipNav">Skip to content</SkipNavLink>
      <NavigationProgress />
      <Header />
      <Box as="main" flex="1" display="flex" flexDirection="column">
        <SkipNavContent />
        <Outlet />
      </Box>
      <Footer />
      <ScrollRestoration />
      <PendingPurchaseResume />
    </Flex>
  );
}
