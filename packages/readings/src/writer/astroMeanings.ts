/** Interpretive vocabulary for planets, signs, houses and aspects, in our own words. */
import type { AspectName } from '../astro/aspects.ts';
import type { Element, PointKey } from '../astro/zodiac.ts';

export interface PointMeaning {
  /** What the point stands for, as a noun phrase: 'your core identity and vitality'. */
  theme: string;
  /** A short noun phrase without possessive, for aspect sentences: 'sense of self'. */
  short: string;
}

export const POINT_MEANINGS: Readonly<Record<PointKey, PointMeaning>> = {
  sun: { theme: 'your core identity, vitality and sense of purpose', short: 'sense of self' },
  moon: {
    theme: 'your emotional needs, instincts and what makes you feel safe',
    short: 'feelings',
  },
  mercury: { theme: 'how you think, learn and communicate', short: 'mind and voice' },
  venus: { theme: 'what you love, how you attract and what you value', short: 'affections' },
  mars: { theme: 'your drive, desire and the way you assert yourself', short: 'drive' },
  jupiter: { theme: 'where you grow, find luck and look for meaning', short: 'optimism' },
  saturn: {
    theme: 'your sense of duty, your limits and what you build slowly',
    short: 'discipline',
  },
  uranus: {
    theme: 'your urge for freedom, originality and sudden change',
    short: 'need for freedom',
  },
  neptune: { theme: 'your imagination, ideals and spiritual longing', short: 'dreams' },
  pluto: {
    theme: 'your capacity for deep transformation and your relationship with power',
    short: 'intensity',
  },
  ascendant: {
    theme: 'the way you meet the world and the first impression you give',
    short: 'outward manner',
  },
  medium_coeli: {
    theme: 'your public direction, vocation and reputation',
    short: 'ambitions',
  },
  chiron: {
    theme: 'a tender spot that, once understood, becomes your gift for helping others',
    short: 'old wound',
  },
  mean_lilith: {
    theme: 'the untamed, unapologetic part of you that refuses to be made small',
    short: 'wild side',
  },
  mean_node: {
    theme: 'the direction of growth this life keeps pulling you towards',
    short: 'path of growth',
  },
  true_node: {
    theme: 'the direction of growth this life keeps pulling you towards',
    short: 'path of growth',
  },
  mean_south_node: {
    theme: 'the familiar talents and habits you fall back on',
    short: 'comfort zone',
  },
  true_south_node: {
    theme: 'the familiar talents and habits you fall back on',
    short: 'comfort zone',
  },
};

export interface SignMeaning {
  /** Adjectives for how the sign colours whatever sits in it. */
  style: string;
  gift: string;
  challenge: string;
}

export const SIGN_MEANINGS: Readonly<Record<string, SignMeaning>> = {
  Aries: {
    style: 'bold, direct and quick to act',
    gift: 'courage and the nerve to go first',
    challenge: 'impatience and a short fuse',
  },
  Taurus: {
    style: 'steady, sensual and patient',
    gift: 'staying power and a feel for what is real and lasting',
    challenge: 'stubbornness and resistance to change',
  },
  Gemini: {
    style: 'curious, quick-witted and versatile',
    gift: 'a lively mind that connects people and ideas',
    challenge: 'restlessness and scattered attention',
  },
  Cancer: {
    style: 'protective, intuitive and deeply feeling',
    gift: 'the ability to make others feel cared for and at home',
    challenge: 'moodiness and retreating into your shell',
  },
  Leo: {
    style: 'warm, expressive and proud',
    gift: 'generosity and a natural presence that lights up a room',
    challenge: 'needing applause to feel secure',
  },
  Virgo: {
    style: 'precise, observant and helpful',
    gift: 'a talent for improving, refining and healing',
    challenge: 'self-criticism and worry over details',
  },
  Libra: {
    style: 'gracious, fair-minded and relationship-oriented',
    gift: 'diplomacy and an eye for beauty and balance',
    challenge: 'indecision and people-pleasing',
  },
  Scorpio: {
    style: 'intense, private and penetrating',
    gift: 'emotional depth and the courage to face what others avoid',
    challenge: 'jealousy and holding on too tightly',
  },
  Sagittarius: {
    style: 'adventurous, candid and optimistic',
    gift: 'a big-picture vision and contagious enthusiasm',
    challenge: 'overpromising and bluntness',
  },
  Capricorn: {
    style: 'ambitious, disciplined and realistic',
    gift: 'the patience to build something that lasts',
    challenge: 'rigidity and carrying too much alone',
  },
  Aquarius: {
    style: 'independent, inventive and idealistic',
    gift: 'originality and a mind for the future and the collective',
    challenge: 'detachment and contrariness',
  },
  Pisces: {
    style: 'imaginative, compassionate and porous',
    gift: 'empathy and a strong link to intuition and art',
    challenge: 'escapism and blurred boundaries',
  },
};

/** What each house governs (index 0 = first house). */
export const HOUSE_MEANINGS: readonly string[] = [
  'your body, appearance and the way you start things',
  'money, possessions and your sense of self-worth',
  'communication, learning, siblings and your neighbourhood',
  'home, family, roots and your private inner base',
  'creativity, romance, pleasure and children',
  'daily work, routines, service and health',
  'close partnerships, marriage and open rivals',
  'intimacy, shared resources, crises and rebirth',
  'travel, higher learning, beliefs and the search for meaning',
  'career, reputation and your public role',
  'friends, groups, networks and hopes for the future',
  'solitude, the unconscious, endings and what happens behind the scenes',
];

export interface AspectMeaning {
  /** How the aspect makes two things behave together. */
  dynamic: string;
  nature: 'fusion' | 'harmonious' | 'challenging';
}

export const ASPECT_MEANINGS: Readonly<Record<AspectName, AspectMeaning>> = {
  conjunction: {
    dynamic:
      'are fused: they act as one force, for better and for worse, and are hard to tell apart',
    nature: 'fusion',
  },
  opposition: {
    dynamic:
      'pull from opposite ends; the tension makes you aware of both and asks for balance rather than a winner',
    nature: 'challenging',
  },
  trine: {
    dynamic:
      'flow together easily; this is a natural talent that works best when you use it on purpose',
    nature: 'harmonious',
  },
  sextile: {
    dynamic: 'cooperate when invited; a door that opens as soon as you make a small effort',
    nature: 'harmonious',
  },
  square: {
    dynamic:
      'grind against each other; the friction is uncomfortable but it is also what drives growth and achievement',
    nature: 'challenging',
  },
};

export const ELEMENT_MEANINGS: Readonly<Record<Element, string>> = {
  Fire: 'enthusiasm, initiative and the need to act on inspiration',
  Earth: 'practicality, patience and a need for tangible results',
  Air: 'ideas, conversation and the need to understand and connect',
  Water: 'feeling, intuition and the need for emotional truth',
};
