import { ChakraProvider } from '@chakra-ui/react';
import { CacheProvider } from '@emotion/react';
import { type ReactNode, useState } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { system } from '../theme';
import { ColorModeProvider } from '../ui/colorMode';
import { makeEmotionCache } from '../ui/emotionCache';
import { Toaster } from '../ui/toaster';
import type { AppStore } from './store';

export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  const [emotionCache] = useState(makeEmotionCache);
  return (
    <ReduxProvider store={store}>
      <CacheProvider value={emotionCache}>
        <ChakraProvider value={system}>
          <ColorModeProvider>
            {children}
            <Toaster />
          </ColorModeProvider>
        </ChakraProvider>
      </CacheProvider>
    </ReduxProvider>
  );
}
