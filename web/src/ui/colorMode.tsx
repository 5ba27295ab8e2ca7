import { IconButton, Span } from '@chakra-ui/react';
import { Moon, Sun } from 'lucide-react';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useSyncExternalStore,
} from 'react';

/**
 * Colour mode without next-themes: Chakra v3 styles `_dark` from a `dark` class on <html>.
 * index.html applies the stored mode before the first paint; this provider reads and changes it.
 */
export type ColorMode = 'light' | 'dark';

export const COLOR_MODE_STORAGE_KEY = 'astra-color-mode';

interface ColorModeValue {
  colorMode: ColorMode;
  setColorMode: (mode: ColorMode) => void;
  toggleColorMode: () => void;
}

const ColorModeContext = createContext<ColorModeValue | null>(null);

/**
 * The mode is the class on <html>: index.html's inline script sets it before the first paint
 * (from storage, else the system's preference), and `setColorMode` changes it.
 */
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const currentMode = (): ColorMode =>
  document.documentElement.classList.contains('dark') ? 'dark' : 'light';

/**
 * The server draws pages without knowing the visitor's mode (it is kept in the browser): as
 * light. Colours and the toggle follow the class on <html> by CSS, so a drawn page shows the
 * right ones before the app starts; React then renders again with the page's own mode.
 */
const drawnMode = (): ColorMode => 'light';

function applyMode(mode: ColorMode) {
  const root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(mode);
  root.style.colorScheme = mode;
  for (const listener of listeners) listener();
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const colorMode = useSyncExternalStore(subscribe, currentMode, drawnMode);

  const setColorMode = useCallback((mode: ColorMode) => {
    applyMode(mode);
    try {
      window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, mode);
    } catch {
      // not persisted; the choice still holds for this visit
    }
  }, []);

  const value = useMemo<ColorModeValue>(
    () => ({
      colorMode,
      setColorMode,
      toggleColorMode: () => setColorMode(colorMode === 'dark' ? 'light' : 'dark'),
    }),
    [colorMode, setColorMode],
  );

  return <ColorModeContext.Provider value={value}>{children}</ColorModeContext.Provider>;
}

export function useColorMode(): ColorModeValue {
  const value = useContext(ColorModeContext);
  if (!value) throw new Error('useColorMode must be used inside ColorModeProvider');
  return value;
}

/**
 * Its icon and name are chosen by CSS from the class on <html> (the other mode's are not
 * displayed, so not named either): right on a page drawn by the server before the app starts.
 */
export function ColorModeToggle() {
  const { toggleColorMode } = useColorMode();
  return (
    <IconButton variant="ghost" size="sm" onClick={toggleColorMode}>
      <Span display="contents" _dark={{ display: 'none' }}>
        <Moon aria-hidden />
        <Span srOnly>Switch to dark mode</Span>
      </Span>
      <Span display="none" _dark={{ display: 'contents' }}>
        <Sun aria-hidden />
        <Span srOnly>Switch to light mode</Span>
      </Span>
    </IconButton>
  );
}
