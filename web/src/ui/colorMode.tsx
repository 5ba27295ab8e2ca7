import { IconButton } from '@chakra-ui/react';
import { Moon, Sun } from 'lucide-react';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';

/**
 * Colour mode without next-themes: Chakra v3 styles `_dark` from a `dark` class on <html>.
 * index.html applies the stored mode before the first paint; this provider keeps it in sync.
 */
export type ColorMode = 'light' | 'dark';

export const COLOR_MODE_STORAGE_KEY = 'astra-color-mode';

interface ColorModeValue {
  colorMode: ColorMode;
  setColorMode: (mode: ColorMode) => void;
  toggleColorMode: () => void;
}

const ColorModeContext = createContext<ColorModeValue | null>(null);

function readStoredMode(): ColorMode | null {
  try {
    const stored = window.localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : null;
  } catch {
    return null; // storage can be blocked (private modes, strict settings)
  }
}

function initialMode(): ColorMode {
  const stored = readStoredMode();
  if (stored) return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const [colorMode, setMode] = useState<ColorMode>(initialMode);

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.classList.remove('light', 'dark');
    root.classList.add(colorMode);
    root.style.colorScheme = colorMode;
  }, [colorMode]);

  const setColorMode = useCallback((mode: ColorMode) => {
    setMode(mode);
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
