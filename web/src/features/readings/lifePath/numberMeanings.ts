/** Short titles of the numerology numbers (1–9 and the master numbers 11, 22, 33). */
export const NUMBER_MEANINGS: Record<number, { title: string; keywords: string }> = {
  1: { title: 'The Initiator', keywords: 'Independence, initiative and courage' },
  2: { title: 'The Partner', keywords: 'Partnership, diplomacy and sensitivity' },
  3: { title: 'The Communicator', keywords: 'Expression, creativity and joy' },
  4: { title: 'The Builder', keywords: 'Structure, discipline and reliability' },
  5: { title: 'The Adventurer', keywords: 'Freedom, change and curiosity' },
  6: { title: 'The Caretaker', keywords: 'Care, responsibility and harmony at home' },
  7: { title: 'The Seeker', keywords: 'Reflection, wisdom and inner truth' },
  8: { title: 'The Achiever', keywords: 'Ambition, mastery and abundance' },
  9: { title: 'The Humanitarian', keywords: 'Compassion, generosity and completion' },
  11: { title: 'The Intuitive', keywords: 'A master number: inspiration, insight and vision' },
  22: { title: 'The Master Builder', keywords: 'A master number: great dreams made real' },
  33: { title: 'The Master Teacher', keywords: 'A master number: healing and selfless service' },
  0: { title: 'Quiet Heart', keywords: 'The name has no vowels to count; your reading explains' },
};

/** The three numbers a life path reading gives, and what each one describes. */
export const LIFE_PATH_NUMBERS = [
  {
    key: 'lifePathNumber',
    label: 'Life Path Number',
    role: 'The road you walk, from your birth date.',
  },
  {
    key: 'destinyNumber',
    label: 'Destiny Number',
    role: 'What you are here to do, from your full name.',
  },
  {
    key: 'soulUrgeNumber',
    label: 'Soul Urge Number',
    role: "What your heart longs for, from your name's vowels.",
  },
] as const;
