/** What each number stands for, in our own words, for the writer and the prompts. */

export interface NumberMeaning {
  number: number;
  title: string;
  keywords: readonly string[];
  /** The number's character in general. */
  essence: string;
  /** As a life path: the road and its lessons. */
  lifePath: string;
  /** As a destiny number: what the person is built to do with their gifts. */
  destiny: string;
  /** As a soul urge: what the person quietly longs for. */
  soulUrge: string;
  /** Where it goes wrong. */
  shadow: string;
}

export const NUMBER_MEANINGS: Readonly<Record<number, NumberMeaning>> = {
  1: {
    number: 1,
    title: 'The Initiator',
    keywords: ['independence', 'courage', 'beginnings', 'will'],
    essence: 'One is the first step: the spark that decides to exist and go its own way.',
    lifePath:
      'Your road asks you to stand on your own feet, start what nobody else will start, and trust your judgement before the crowd agrees.',
    destiny:
      'You are equipped to lead, to pioneer and to turn an idea into the first working version of itself.',
    soulUrge:
      'Deep down you want room to act on your own terms and the quiet pride of having done it yourself.',
    shadow: 'Impatience, stubbornness and the habit of refusing help you actually need.',
  },
  2: {
    number: 2,
    title: 'The Partner',
    keywords: ['cooperation', 'sensitivity', 'diplomacy', 'balance'],
    essence: 'Two is the meeting of one with another: listening, pairing, weighing both sides.',
    lifePath:
      'Your road runs through relationships; you grow by cooperating, mediating and noticing what others miss.',
    destiny:
      'You are built to bring people together, smooth friction and make a team stronger than its parts.',
    soulUrge: 'What you long for is closeness, harmony and a bond in which you are truly seen.',
    shadow: 'Over-sensitivity, indecision and keeping the peace at the cost of your own voice.',
  },
  3: {
    number: 3,
    title: 'The Communicator',
    keywords: ['expression', 'creativity', 'joy', 'sociability'],
    essence: 'Three is what two people make together: a story, a song, something new to share.',
    lifePath:
      'Your road is one of self-expression; words, art and humour are how you find your place and lift others.',
    destiny:
      'You are gifted at inspiring, entertaining and putting feelings into forms other people can enjoy.',
    soulUrge: 'You long to create, to be heard and to keep life light and full of colour.',
    shadow: 'Scattered energy, superficiality and hiding worry behind a cheerful front.',
  },
  4: {
    number: 4,
    title: 'The Builder',
    keywords: ['structure', 'discipline', 'reliability', 'work'],
    essence: 'Four is the square: four corners, firm ground, a plan that holds weight.',
    lifePath:
      'Your road asks for patience and method; what you build brick by brick tends to last.',
    destiny:
      'You are made to organise, maintain and bring order where others leave things half finished.',
    soulUrge:
      'What you secretly want is security: a steady base, honest work and things in their place.',
    shadow: 'Rigidity, over-caution and confusing routine with safety.',
  },
  5: {
    number: 5,
    title: 'The Adventurer',
    keywords: ['freedom', 'change', 'curiosity', 'the senses'],
    essence: 'Five sits in the middle of the digits and looks every way: movement, variety, risk.',
    lifePath:
      'Your road is full of change; travel, new people and experiments teach you more than any rulebook.',
    destiny:
      'You are equipped to adapt, to sell an idea, and to carry news and energy from one world to another.',
    soulUrge: 'You long for freedom, novelty and the feeling that life is still wide open.',
    shadow: 'Restlessness, excess and leaving before something has had time to grow.',
  },
  6: {
    number: 6,
    title: 'The Caretaker',
    keywords: ['responsibility', 'love', 'home', 'service'],
    essence: 'Six is the harmonious family: responsibility taken on out of love.',
    lifePath:
      'Your road runs through care for others; home, family and community are where you do your deepest work.',
    destiny:
      'You are gifted at nurturing, teaching, healing and making a space feel beautiful and safe.',
    soulUrge: 'What you long for is to love and be loved in a home that feels like a shelter.',
    shadow: 'Over-responsibility, perfectionism and helping in ways that control.',
  },
  7: {
    number: 7,
    title: 'The Seeker',
    keywords: ['analysis', 'introspection', 'wisdom', 'faith'],
    essence: 'Seven withdraws to look beneath the surface and ask why.',
    lifePath:
      'Your road is a search for truth; study, solitude and reflection turn your questions into understanding.',
    destiny: 'You are equipped to research, specialise and see the pattern under the noise.',
    soulUrge: 'You long for quiet, depth and answers that actually satisfy the mind and spirit.',
    shadow: 'Isolation, suspicion and keeping people at the distance of an experiment.',
  },
  8: {
    number: 8,
    title: 'The Achiever',
    keywords: ['power', 'ambition', 'material mastery', 'authority'],
    essence: 'Eight is the loop of effort and return: resources, results, influence.',
    lifePath:
      'Your road teaches you to handle power and money well; you are tested and rewarded in the material world.',
    destiny:
      'You are built to manage, to run things at scale and to turn vision into measurable success.',
    soulUrge: 'What you want is to achieve, to be respected for it and to never feel powerless.',
    shadow: 'Workaholism, control and measuring your worth only by results.',
  },
  9: {
    number: 9,
    title: 'The Humanitarian',
    keywords: ['compassion', 'completion', 'idealism', 'generosity'],
    essence: 'Nine holds all the digits before it: endings, wisdom, a wide embrace.',
    lifePath:
      'Your road asks you to give back; you grow by serving something larger than yourself and by letting go gracefully.',
    destiny:
      'You are gifted at seeing the whole picture and inspiring others through generosity and art.',
    soulUrge:
      'You long to make the world kinder and to feel your life has meant something to others.',
    shadow: 'Martyrdom, aloofness and difficulty with endings you did not choose.',
  },
  11: {
    number: 11,
    title: 'The Intuitive (master number)',
    keywords: ['intuition', 'inspiration', 'sensitivity', 'vision'],
    essence:
      'Eleven is a master number: the partnership of two raised to a current of insight and inspiration.',
    lifePath:
      'Your road carries a heightened intuition; you are here to inspire and to trust the flashes of knowing that arrive before the reasons do.',
    destiny:
      'You are equipped to illuminate: to teach, counsel or create in ways that wake something up in others.',
    soulUrge:
      'You long for meaning and a spiritual connection that makes your sensitivity worthwhile.',
    shadow: 'Nervous tension, self-doubt and feeling everything too strongly to act.',
  },
  22: {
    number: 22,
    title: 'The Master Builder (master number)',
    keywords: ['vision made real', 'large-scale work', 'practical idealism'],
    essence:
      'Twenty-two is a master number: the discipline of four carrying the dreams of eleven into the world.',
    lifePath:
      'Your road asks you to build something that outlasts you; big plans are yours to make concrete, step by practical step.',
    destiny: 'You are built to organise people and resources around a vision and make it stand.',
    soulUrge: 'What you want is to leave a lasting, useful mark on the world.',
    shadow: 'Crushing pressure, fear of failure and shrinking the dream to feel safe.',
  },
  33: {
    number: 33,
    title: 'The Master Teacher (master number)',
    keywords: ['compassionate service', 'healing', 'guidance'],
    essence:
      'Thirty-three is a master number: the care of six lifted into selfless teaching and healing.',
    lifePath:
      'Your road is devoted to uplifting others; you teach most by example, through love that asks little in return.',
    destiny: 'You are gifted at healing, mentoring and holding others while they grow.',
    soulUrge: 'You long to serve with your whole heart and see the people you love flourish.',
    shadow: 'Self-sacrifice to exhaustion and carrying burdens that are not yours.',
  },
};

/** Meaning of a reduced number (0 only for a name without letters in its vowels). */
export function numberMeaning(n: number): NumberMeaning | null {
  return NUMBER_MEANINGS[n] ?? null;
}
