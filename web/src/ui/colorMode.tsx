import { IconButton } from '@chakra-ui/react';
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
 * Pages prerendered at build time know no visitor's mode: they are drawn as light (only the
 * toggle's icon and label depend on it; colours follow the class by CSS). Hydration starts from
 * this, then React renders again with the page's own mode, without a mismatch.
 */
const prerenderedMode = (): ColorMode => 'light';

function applyMode(mode: ColorMode) {
  const root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(mode);
  root.style.colorScheme = mode;
  for (const listener of listeners) listener();
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const colorMode = useSyncExternalStore(subscribe, currentMode, prerenderedMode);

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

export function ColorModeToggle() {
  const { colorMode, toggleColorMode } = useColorMode();
  const next = colorMode === 'dark' ? 'light' : 'dark';
  return (
    <IconButton
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      variant="ghost"
      size="sm"
      onClick={toggleColorMode}
    >
      {colorMode === 'dark' ? <Sun aria-hidden /> : <Moon aria-hidden />}
    </IconButton>
  );
}
