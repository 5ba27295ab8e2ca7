/**
 * The five reading apps by the server's app id (spec: 1 natal chart, 2 Celtic Cross, 3 tarot
 * traditional, 4 compatibility, 5 life path). Names here are fallbacks; the server's name and
 * credit cost (GET /api/apps) win.
 */
export interface ReadingAppInfo {
  appId: number;
  name: string;
  formPath: string;
  blurb: string;
}

export const READING_APPS: Record<number, ReadingAppInfo> = {
  1: {
    appId: 1,
    name: 'Natal Birth Chart',
    formPath: '/natalbirthchart',
    blurb: 'The sky at the moment you were born: your sun, moon, rising sign and the houses.',
  },
  2: {
    appId: 2,
    name: 'Tarot Celtic Cross',
    formPath: '/tarot-celtic-cross',
    blurb: 'A ten-card spread for a big question, from its roots to where it may lead.',
  },
  3: {
    appId: 3,
    name: 'Tarot Traditional',
    formPath: '/tarot-traditional',
    blurb: 'Three cards for your past, present and future, read around your question.',
  },
  4: {
    appId: 4,
    name: 'Compatibility Reading',
    formPath: '/compatibility',
    blurb: 'How two charts meet: where you flow together and where you grow.',
  },
  5: {
    appId: 5,
    name: 'Life Path Number',
    formPath: '/lifepathnumber',
    blurb: 'The numerology of your name and birth date, and the path they describe.',
  },
};

/** Spec §9: tarot traditional, natal birth chart, life path number, Celtic Cross, compatibility. */
export const DASHBOARD_APP_ORDER = [3, 1, 5, 2, 4] as const;
