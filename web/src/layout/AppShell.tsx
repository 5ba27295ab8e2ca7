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
      {/* At least a screen tall: the footer starts below the fold, so a page whose content
          arrives after the first paint does not push a visible footer down (layout shift). */}
      <Box as="main" flex="1" minH="100dvh" display="flex" flexDirection="column">
        <SkipNavContent />
        <Outlet />
      </Box>
      <Footer />
      <ScrollRestoration />
      <PendingPurchaseResume />
    </Flex>
  );
}
