import { ChakraProvider } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { type ReactNode, useState } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { system } from '../theme';
import { ColorModeProvider } from '../ui/colorMode';
import { makeEmotionCache } from '../ui/emotionCache';
import { Toaster } from '../ui/toaster';
import type { AppStore } from './store';
import { TimeZoneProvider } from './timeZone';

interface AppProvidersProps {
  store: AppStore;
  /** The time zone the page was drawn in (`timeZone.tsx`); none for a page the app draws. */
  drawnIn?: string;
  children: ReactNode;
}

export function AppProviders({ store, drawnIn, children }: AppProvidersProps) {
  const [emotionCache] = useState(makeEmotionCache);
  return (
    <ReduxProvider store={store}>
      <CacheProvider value={emotionCache}>
        <ChakraProvider value={system}>
          <ColorModeProvider>
            <TimeZoneProvider drawnIn={drawnIn}>
              {children}
              <Toaster />
            </TimeZoneProvider>
          </ColorModeProvider>
        </ChakraProvider>
      </CacheProvider>
    </ReduxProvider>
  );
}
