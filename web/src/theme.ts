import { createSystem, defaultBaseConfig, defineConfig, defineRecipe } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  skipNavLinkRecipe,
  spinnerRecipe,
  statSlotRecipe,
  tableSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';
import { yieldToBrowser } from './ui/yieldToBrowser';

/**
 * Astra's night-sky theme. Colour pairs are chosen for at least 4.5:1 contrast in both modes:
 * light mode is ink-indigo on pale lavender, dark mode is starlight on deep navy with gold as the
 * accent. Components read semantic tokens only, so the colour mode switch is one class on <html>.
 */

const byMode = (lightValue: string, darkValue: string) => ({
  value: { _light: lightValue, _dark: darkValue },
});

/** A card-like surface; `interactive` lifts on hover for cards that hold a link. */
export const surfaceRecipe = defineRecipe({
  className: 'astra-surface',
  base: {
    bg: 'bg.panel',
    color: 'fg',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'xl',
    p: { base: '5', md: '6' },
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    boxShadow: 'sm',
  },
  variants: {
    tone: {
      plain: {},
      glow: { borderColor: 'starlight.border', boxShadow: 'glow' },
      muted: { bg: 'bg.subtle', boxShadow: 'none' },
    },
    interactive: {
      true: {
        transitionProperty: 'transform, box-shadow, border-color',
        transitionDuration: 'moderate',
        _hover: { transform: 'translateY(-2px)', borderColor: 'starlight.border', boxShadow: 'md' },
      },
    },
  },
  defaultVariants: { tone: 'plain' },
});

/** Vertical rhythm of full-width page sections (landing, about, legal). */
export const sectionRecipe = defineRecipe({
  className: 'astra-section',
  base: { py: { base: '12', md: '20' }, px: { base: '4', md: '8' } },
  variants: {
    tone: {
      plain: {},
      subtle: { bg: 'bg.subtle' },
      // The night sky stays dark in both colour modes, so its text colours are fixed.
      night: { layerStyle: 'nightSky', color: 'night.fg' },
    },
  },
  defaultVariants: { tone: 'plain' },
});

/**
 * Chakra's tokens that neither Astra's code nor the recipes it uses name: every token costs the
 * first page load its share of `createSystem` (the token dictionary and its CSS variables, which
 * Chakra computes and emotion serializes before anything is drawn), about 1 ms each on a phone.
 * Palettes: no `colorPalette` is pink, cyan, teal or yellow; whiteAlpha is never used and
 * blackAlpha only as the dialogs' backdrop. Groups: aspect ratios and blurs are written as plain
 * CSS where used; sizes leave out the fractions (`1/2`) and breakpoint widths.
 */
const UNUSED_PALETTES = new Set(['pink', 'cyan', 'teal', 'yellow', 'whiteAlpha']);
const UNUSED_GROUPS = new Set(['aspectRatios', 'blurs']);
const isUnusedSize = (name: string) => name.includes('/') || name.startsWith('breakpoint-');

type TokenGroups = Record<string, Record<string, unknown>>;

const keepEntries = (group: Record<string, unknown>, keep: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(group).filter(([name]) => keep(name)));

function withoutUnusedTokens<T extends object>(groups: T): T {
  const kept: TokenGroups = {};
  for (const [name, group] of Object.entries(groups as TokenGroups)) {
    if (UNUSED_GROUPS.has(name)) continue;
    if (name === 'colors') {
      const colors = keepEntries(group, (palette) => !UNUSED_PALETTES.has(palette));
      if (colors.blackAlpha) colors.blackAlpha = { 500: (colors.blackAlpha as TokenGroups)[500] };
      kept.colors = colors;
    } else if (name === 'sizes') {
      kept.sizes = keepEntries(group, (size) => !isUnusedSize(size));
    } else {
      kept[name] = group;
    }
  }
  return kept as T;
}

/**
 * Chakra's tokens and only the component recipes Astra renders. `defaultConfig` would ship the
 * recipes of every Chakra component (about 30 KB gzipped) in the first page load.
 */
const chakraBase = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: withoutUnusedTokens(tokens),
    semanticTokens: withoutUnusedTokens(semanticTokens),
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      skipNavLink: skipNavLinkRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      stat: statSlotRecipe,
      table: tableSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

const astraConfig = defineConfig({
  globalCss: {
    html: {
      colorPalette: 'brand',
      scrollBehavior: 'smooth',
      _motionReduce: { scrollBehavior: 'auto' },
    },
    body: { bg: 'bg', color: 'fg', minHeight: '100dvh' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: {
          value:
            "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, 'Times New Roman', serif",
        },
        body: {
          value:
            "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
        },
      },
      colors: {
        // Blue-tinted greys so neutral components sit in the same night palette.
        gray: {
          50: { value: '#F6F6FB' },
          100: { value: '#ECECF5' },
          200: { value: '#DCDCEA' },
          300: { value: '#C2C2D8' },
          400: { value: '#9E9EBE' },
          500: { value: '#74749A' },
          600: { value: '#55557A' },
          700: { value: '#3D3D5E' },
          800: { value: '#262A4A' },
          900: { value: '#161A36' },
          950: { value: '#0B1026' },
        },
        brand: {
          50: { value: '#F3F2FD' },
          100: { value: '#ECEAF8' },
          200: { value: '#DCD9FB' },
          300: { value: '#BAB3F6' },
          400: { value: '#978CF0' },
          500: { value: '#6A5AE0' },
          600: { value: '#4A3AB8' },
          700: { value: '#3B2E96' },
          800: { value: '#2D2373' },
          900: { value: '#1F1850' },
          950: { value: '#130F33' },
        },
        gold: {
          100: { value: '#FDEFC2' },
          200: { value: '#FBE08A' },
          300: { value: '#F6CD55' },
          400: { value: '#F0BB2E' },
          500: { value: '#D9A11A' },
          700: { value: '#86600C' },
          800: { value: '#5E430A' },
        },
        navy: {
          950: { value: '#070B1F' },
          900: { value: '#0B1026' },
          850: { value: '#10163A' },
          800: { value: '#131A3A' },
          700: { value: '#1C2550' },
          600: { value: '#2A3470' },
          500: { value: '#36418A' },
        },
      },
      shadows: {
        glow: { value: '0 0 0 1px rgba(246, 205, 85, 0.25), 0 8px 30px rgba(11, 16, 38, 0.25)' },
      },
    },
    semanticTokens: {
      colors: {
        bg: {
          DEFAULT: byMode('#F8F7FE', '{colors.navy.900}'),
          subtle: byMode('#F0EEFB', '{colors.navy.850}'),
          muted: byMode('{colors.brand.100}', '{colors.navy.700}'),
          emphasized: byMode('{colors.brand.200}', '{colors.navy.600}'),
          panel: byMode('{colors.white}', '{colors.navy.800}'),
        },
        fg: {
          DEFAULT: byMode('#17153A', '#F1EFFB'),
          muted: byMode('#4B4870', '#B9B8D9'),
          subtle: byMode('#55557A', '#A9A9CC'),
          error: byMode('{colors.red.700}', '{colors.red.300}'),
          warning: byMode('{colors.orange.800}', '{colors.orange.300}'),
          success: byMode('{colors.green.700}', '{colors.green.300}'),
          info: byMode('{colors.blue.700}', '{colors.blue.300}'),
        },
        border: {
          DEFAULT: byMode('#DAD6F0', '{colors.navy.600}'),
          muted: byMode('{colors.brand.100}', '{colors.navy.700}'),
          emphasized: byMode('{colors.brand.300}', '{colors.navy.500}'),
        },
        // The primary palette: indigo in light mode, starlight gold in dark mode.
        brand: {
          solid: byMode('{colors.brand.600}', '{colors.gold.300}'),
          contrast: byMode('{colors.white}', '{colors.navy.900}'),
          fg: byMode('{colors.brand.700}', '{colors.gold.300}'),
          muted: byMode('{colors.brand.200}', '{colors.navy.600}'),
          subtle: byMode('{colors.brand.100}', '{colors.navy.700}'),
          emphasized: byMode('{colors.brand.300}', '{colors.navy.500}'),
          focusRing: byMode('{colors.brand.500}', '{colors.gold.300}'),
          border: byMode('{colors.brand.500}', '{colors.gold.400}'),
        },
        // Chakra's green.600 carries white text at only 3.3:1; one step darker passes 4.5:1.
        green: { solid: { value: '{colors.green.700}' } },
        // Gold accents for small highlights (icons, stars, prices) readable on both grounds:
        // named tokens, not a `colorPalette` (no recipe is drawn in gold).
        starlight: {
          fg: byMode('{colors.gold.700}', '{colors.gold.300}'),
          border: byMode('{colors.gold.500}', '{colors.gold.400}'),
        },
        // The natal chart wheel: the sign ring's element tints (drawn at 16% opacity) and the
        // aspect lines, brighter on the dark ground so that they keep their contrast there.
        // Flat names: a `chart` group would also be made a colorPalette, nine more tokens.
        'chart-fire': byMode('#E4572E', '{colors.red.400}'),
        'chart-earth': byMode('#4C9F70', '{colors.green.400}'),
        'chart-air': byMode('{colors.gold.500}', '{colors.gold.300}'),
        'chart-water': byMode('#3A7BD5', '{colors.blue.400}'),
        'chart-conjunction': byMode('#B7791F', '{colors.gold.300}'),
        'chart-opposition': byMode('#D64545', '{colors.red.400}'),
        'chart-square': byMode('#DD6B20', '{colors.orange.400}'),
        'chart-trine': byMode('#2F9E6B', '{colors.green.400}'),
        'chart-sextile': byMode('{colors.blue.500}', '{colors.blue.300}'),
        // The night sky panel is dark in both modes, so its colours are fixed.
        night: {
          bg: { value: '{colors.navy.900}' },
          fg: { value: '#F1EFFB' },
          muted: { value: '#C9C8E6' },
          accent: { value: '{colors.gold.300}' },
        },
      },
    },
    textStyles: {
      display: {
        value: {
          fontFamily: 'heading',
          fontWeight: 'semibold',
          fontSize: { base: '4xl', md: '6xl' },
          lineHeight: '1.1',
          letterSpacing: '-0.01em',
        },
      },
      pageTitle: {
        value: {
          fontFamily: 'heading',
          fontWeight: 'semibold',
          fontSize: { base: '2xl', md: '4xl' },
          lineHeight: '1.2',
        },
      },
      sectionTitle: {
        value: {
          fontFamily: 'heading',
          fontWeight: 'semibold',
          fontSize: { base: 'xl', md: '3xl' },
          lineHeight: '1.25',
        },
      },
      eyebrow: {
        value: {
          fontSize: 'xs',
          fontWeight: 'bold',
          letterSpacing: '0.12em',
          textTransform: 'uppercase',
        },
      },
    },
    layerStyles: {
      nightSky: {
        value: {
          bg: 'night.bg',
          // Hand-placed stars: a few radial dots on a deep indigo gradient, no images.
          backgroundImage: [
            'radial-gradient(1.5px 1.5px at 12% 18%, rgba(255,255,255,0.9), transparent)',
            'radial-gradient(1px 1px at 28% 62%, rgba(255,255,255,0.7), transparent)',
            'radial-gradient(1.5px 1.5px at 46% 28%, rgba(246,205,85,0.9), transparent)',
            'radial-gradient(1px 1px at 63% 74%, rgba(255,255,255,0.8), transparent)',
            'radial-gradient(1.5px 1.5px at 78% 22%, rgba(255,255,255,0.9), transparent)',
            'radial-gradient(1px 1px at 88% 56%, rgba(246,205,85,0.7), transparent)',
            'radial-gradient(1px 1px at 8% 84%, rgba(255,255,255,0.6), transparent)',
            'radial-gradient(ellipse at top, #2A2470 0%, #0B1026 60%)',
          ].join(', '),
        },
      },
    },
    recipes: { surface: surfaceRecipe, section: sectionRecipe },
  },
});

// Its own task: the modules evaluated before it (React, the router, the store) are one, and
// `createSystem`, the longest piece of start-up, another (see ui/yieldToBrowser).
await yieldToBrowser();
export const system = createSystem(defaultBaseConfig, chakraBase, astraConfig);
