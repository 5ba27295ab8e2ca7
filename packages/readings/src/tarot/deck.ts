/**
 * The 78-card Rider–Waite–Smith deck: 22 major arcana with their traditional numbers (Strength
 * VIII, Justice XI, as Waite ordered them) and 56 minor arcana, Ace to King in four suits.
 * Meanings are written for this product, in our own words.
 */

import { TAROT_RANKS, TAROT_SUITS, type TarotSuit } from '@astra/contracts';

export type Suit = TarotSuit;
export type Orientation = 'upright' | 'reversed';

export interface CardMeaning {
  keywords: readonly string[];
  text: string;
}

export interface TarotCard {
  /** 'major-00' … 'major-21', 'wands-01' (Ace) … 'wands-14' (King). */
  id: string;
  name: string;
  arcana: 'major' | 'minor';
  /** Major: 0–21. Minor: 1 (Ace) … 10, 11 Page, 12 Knight, 13 Queen, 14 King. */
  number: number;
  suit: Suit | null;
  upright: CardMeaning;
  reversed: CardMeaning;
}

export interface SuitInfo {
  suit: Suit;
  name: string;
  element: 'Fire' | 'Water' | 'Air' | 'Earth';
  domain: string;
}

export const SUITS: Readonly<Record<Suit, SuitInfo>> = {
  wands: {
    suit: 'wands',
    name: 'Wands',
    element: 'Fire',
    domain: 'drive, creativity, ambition and the things that set you alight',
  },
  cups: {
    suit: 'cups',
    name: 'Cups',
    element: 'Water',
    domain: 'feelings, love, friendship and intuition',
  },
  swords: {
    suit: 'swords',
    name: 'Swords',
    element: 'Air',
    domain: 'thoughts, words, decisions and conflict',
  },
  pentacles: {
    suit: 'pentacles',
    name: 'Pentacles',
    element: 'Earth',
    domain: 'work, money, the body and the material world',
  },
};

type Entry = readonly [
  name: string,
  uprightKeywords: string,
  upright: string,
  reversedKeywords: string,
  reversed: string,
];

const MAJOR: readonly Entry[] = [
  [
    'The Fool',
    'beginnings, spontaneity, trust, the open road',
    'A leap into the unknown with more faith than plan. Fresh starts favour you now if you travel light and stay curious.',
    'recklessness, hesitation, naivety',
    'Either you are about to jump without looking, or fear is keeping you at the cliff edge. Check the ground, then decide.',
  ],
  [
    'The Magician',
    'skill, willpower, resourcefulness, manifestation',
    'Everything you need is already on the table. Focus your intent and use your tools; this is a moment to act, not to wait.',
    'manipulation, scattered energy, untapped talent',
    'Talent is present but misdirected, or someone is performing rather than delivering. Look for tricks, including the ones you play on yourself.',
  ],
  [
    'The High Priestess',
    'intuition, inner knowledge, mystery, stillness',
    'The answer is not in more information but beneath it. Be quiet long enough to hear what you already know.',
    'secrets, ignored intuition, surface noise',
    'You are talking over your inner voice, or something is being kept from you. Step back from the chatter and listen again.',
  ],
  [
    'The Empress',
    'abundance, nurture, fertility, sensuality',
    'Growth comes naturally when you tend it with care. Creativity, comfort and generosity flourish; let yourself receive as well as give.',
    'creative block, smothering, self-neglect',
    'Care has tipped into over-giving or things have gone stale. Nourish yourself first and let something grow at its own pace.',
  ],
  [
    'The Emperor',
    'authority, structure, protection, leadership',
    'Order and firm boundaries serve you now. Take charge, set the rules and build something that stands.',
    'rigidity, control, weak boundaries',
    'Power is being held too tightly or not at all. Look at who really decides here, and whether that is fair.',
  ],
  [
    'The Hierophant',
    'tradition, teaching, institutions, shared belief',
    'Established wisdom, mentors and proven methods have something to give you. Learning inside a tradition can steady you.',
    'rebellion, dogma, personal conviction',
    'The old rules no longer fit, or you are following them without thought. Question the doctrine and find what you actually believe.',
  ],
  [
    'The Lovers',
    'union, values, choice, harmony',
    'A meaningful bond, or a choice that shows who you really are. Bringing heart and values into line is the key.',
    'disharmony, misaligned values, avoided choices',
    'A relationship or decision is out of balance. Be honest about what you value before you commit further.',
  ],
  [
    'The Chariot',
    'determination, victory, control, momentum',
    'Pull opposing forces in one direction and you will move fast. Discipline and confidence carry you forward.',
    'lack of direction, divided will, obstacles',
    'You are being pulled several ways at once. Take back the reins before you push harder.',
  ],
  [
    'Strength',
    'courage, patience, compassion, inner strength',
    'Gentle persistence tames what force cannot. Trust your steadiness and meet fear with kindness.',
    'self-doubt, low energy, raw emotion',
    'Confidence is wobbling or instinct is running the show. Rebuild it from small, calm acts of courage.',
  ],
  [
    'The Hermit',
    'solitude, introspection, inner guidance, search',
    'Step away from the crowd to find your own light. Reflection now brings answers that will guide others later.',
    'isolation, loneliness, avoidance',
    'Retreat has become hiding. Reach out again, or ask whether you are avoiding the search altogether.',
  ],
  [
    'Wheel of Fortune',
    'cycles, change, luck, turning point',
    'The wheel turns and circumstances shift in your favour. Ride the change rather than clinging to what was.',
    'setbacks, resisted change, bad timing',
    'A downturn or delay, often from forces outside you. Work on what you can control and remember the wheel keeps turning.',
  ],
  [
    'Justice',
    'fairness, truth, cause and effect, accountability',
    'Decisions are weighed honestly and consequences follow actions. Act with integrity and expect a fair result.',
    'unfairness, dishonesty, dodged responsibility',
    'Something is out of balance or someone is avoiding responsibility, possibly you. Set the record straight.',
  ],
  [
    'The Hanged Man',
    'surrender, pause, new perspective, letting go',
    'Progress comes from stopping. Suspend the struggle and look at the situation from the other way up.',
    'stalling, resistance, pointless sacrifice',
    'You are stuck because you will not let go, or you are giving things up for nothing. Decide what the waiting is for.',
  ],
  [
    'Death',
    'endings, transformation, transition, release',
    'A chapter closes so another can open. Let the ending be complete; clearing space is part of renewal.',
    'resisting change, stagnation, lingering',
    'Holding on to what is already over keeps you in limbo. The change you fear is already under way.',
  ],
  [
    'Temperance',
    'balance, moderation, patience, blending',
    'The middle way works. Blend opposites patiently and healing follows.',
    'excess, imbalance, haste',
    'Extremes are creeping in. Slow down and restore the mix before things boil over.',
  ],
  [
    'The Devil',
    'attachment, temptation, dependency, materialism',
    'A habit, desire or dependency holds more power than it should. Name the chain: it is looser than it looks.',
    'release, breaking free, reclaimed power',
    'You are starting to see the trap clearly and to step out of it. Keep going.',
  ],
  [
    'The Tower',
    'sudden upheaval, revelation, collapse of the false',
    'Something built on weak foundations falls, and fast. Painful as it is, the truth it exposes sets you free.',
    'averted disaster, fear of change, delayed collapse',
    'You are propping up what needs to fall, or the upheaval is happening inside you. Better to release it on your own terms.',
  ],
  [
    'The Star',
    'hope, renewal, inspiration, serenity',
    'After the storm, calm and faith return. Healing is under way; trust the future and share your light.',
    'discouragement, lost faith, disconnection',
    'Hope has dimmed. Small acts of self-care and honest wishes will rekindle it.',
  ],
  [
    'The Moon',
    'illusion, uncertainty, intuition, dreams',
    'Not everything is as it seems. Move carefully through the fog, guided by instinct rather than appearances.',
    'clarity returning, released fear, exposed deception',
    'The confusion lifts and hidden things come to the surface. Fears lose their grip once you see them in daylight.',
  ],
  [
    'The Sun',
    'joy, success, vitality, clarity',
    'Warmth, success and plain happiness. Things are as good as they look; enjoy it and let yourself be seen.',
    'dimmed joy, delays, overconfidence',
    'The light is there but clouded by pessimism, delay or too much ego. It still shines; clear the sky.',
  ],
  [
    'Judgement',
    'awakening, reckoning, calling, renewal',
    'A moment of reckoning and rebirth. Hear the call, review the past honestly and rise to the next level.',
    'self-doubt, an ignored calling, harsh self-judgement',
    'You are judging yourself too harshly or refusing to hear a calling. Forgive, learn and answer.',
  ],
  [
    'The World',
    'completion, fulfilment, integration, arrival',
    'A cycle is complete and you feel whole. Celebrate what you have achieved and get ready for the next journey.',
    'unfinished business, no closure, shortcuts',
    'Something is almost complete but a last step is missing. Tie up the loose ends before you move on.',
  ],
];

/** Per suit, Ace … King: [upright keywords, upright, reversed keywords, reversed]. */
type MinorEntry = readonly [string, string, string, string];

const MINOR: Readonly<Record<Suit, readonly MinorEntry[]>> = {
  wands: [
    [
      'inspiration, new venture, spark',
      'A burst of creative fire or an offer that excites you. Catch the spark while it is hot.',
      'delays, low motivation, false start',
      'The inspiration is there but it stalls, through lack of focus or outside delays. Feed the flame before it fades.',
    ],
    [
      'planning, future vision, bold choices',
      'The world lies before you and you are choosing a direction. Plan boldly, beyond your comfort zone.',
      'fear of the unknown, vague plans, playing safe',
      'Staying where it is safe is starting to cost you, or the plan is too vague to act on. Get specific.',
    ],
    [
      'expansion, foresight, progress',
      'Your ships are coming in. Early efforts bear fruit and the horizon widens.',
      'delays, obstacles, frustration',
      'Returns are slower than you hoped. Reconsider the route; the destination may still be right.',
    ],
    [
      'celebration, homecoming, stability, community',
      'A milestone worth celebrating with others, on a happy and secure foundation.',
      'transition, little support, unsettled home',
      'The celebration is muted or home feels unsettled. Find out where you truly belong.',
    ],
    [
      'competition, friction, clashing egos',
      'Competing ideas and strong personalities collide. The struggle can sharpen you if it stays fair.',
      'avoided conflict, truce, inner tension',
      'Tension is easing, or you are dodging an argument that needs to happen.',
    ],
    [
      'victory, recognition, confidence',
      'Public success and well-earned praise. Accept it with grace.',
      'vanity, fall from grace, unnoticed work',
      "Recognition is missing, or it has gone to someone's head. Value your work without waiting for applause.",
    ],
    [
      'defence, perseverance, standing firm',
      'Others challenge your position, but you hold the high ground. Defend what matters.',
      'overwhelm, giving up, exhaustion',
      'You are tired of fighting on every front. Choose which battles deserve you.',
    ],
    [
      'speed, movement, swift news',
      'Things move fast: messages, travel, sudden progress. Go with the momentum.',
      'delays, frustration, haste',
      'Momentum stalls, or rushing causes mistakes. Wait for the right window.',
    ],
    [
      'resilience, persistence, the last stretch',
      'Battered but still standing, you are close to the end. One more push.',
      'exhaustion, defensiveness, suspicion',
      'Old wounds make you guard too much. Rest, and let someone help.',
    ],
    [
      'burden, responsibility, overload',
      'You are carrying too much. Success has brought weight; decide what to put down.',
      'delegation, release, collapse under load',
      'It is time to hand things over, or the load is already breaking you. Ask for help.',
    ],
    [
      'enthusiasm, exploration, exciting news',
      'A curious, eager energy or a messenger with exciting news. Explore a new passion.',
      'impatience, half-started ideas, no direction',
      'Ideas without follow-through, or news that disappoints. Ground the enthusiasm in a plan.',
    ],
    [
      'energy, passion, adventure, impulse',
      'Bold, charming and in a hurry: go after what excites you.',
      'recklessness, frustration, scattered energy',
      'Rushing in without thinking, or anger boiling over. Slow down.',
    ],
    [
      'confidence, warmth, determination, charisma',
      'Self-assured and magnetic, you inspire the people around you. Own your power openly.',
      'jealousy, insecurity, demands',
      'Confidence has turned into control or self-doubt. Reconnect with your own fire.',
    ],
    [
      'vision, leadership, enterprise',
      'A natural leader with a big vision. Lead by example and take the long view.',
      'impulsiveness, impossible standards, domineering',
      'Leadership turns bossy or hasty. Listen before you command.',
    ],
  ],
  cups: [
    [
      'new love, emotional beginning, compassion',
      'The heart opens: new love, friendship or creative feeling overflows. Let yourself receive it.',
      'blocked feelings, emptiness, repression',
      'Feelings are held back or drained. Attend to what you are not letting yourself feel.',
    ],
    [
      'partnership, mutual attraction, connection',
      'A meeting of equals and a bond built on respect and attraction.',
      'imbalance, broken communication, tension',
      'A relationship has lost its equal footing. Talk honestly about what each of you needs.',
    ],
    [
      'friendship, celebration, community',
      'Good company, shared joy and the support of friends.',
      'overindulgence, gossip, feeling left out',
      'Social life turns sour or excessive. Spend time with the people who truly support you.',
    ],
    [
      'apathy, contemplation, missed offers',
      'Bored or withdrawn, you may not notice an offer being held out to you. Look up.',
      'renewed interest, acceptance, moving on',
      'You are coming out of a slump and are ready to say yes again.',
    ],
    [
      'loss, grief, regret',
      'You are looking at what has spilled. Grieve, then turn round and see what is still standing.',
      'acceptance, recovery, forgiveness',
      'The mourning is easing and you are ready to move forward.',
    ],
    [
      'nostalgia, childhood, innocence, kindness',
      'Sweet memories, or an old friend returns. Simple kindness heals.',
      'stuck in the past, rose-tinted memories',
      'Living in the past is crowding out the present. Keep the lesson and leave the longing.',
    ],
    [
      'choices, illusion, fantasy',
      'Many tempting options, not all of them real. Separate daydreams from real possibilities.',
      'clarity, decisiveness, sober reality',
      'The fog of options clears and you can see what is real.',
    ],
    [
      'walking away, seeking deeper meaning',
      'Leaving what no longer fulfils you, even if it looks fine from the outside.',
      'fear of moving on, drifting, staying too long',
      'You know you should go but cannot yet, or you leave at the first discomfort.',
    ],
    [
      'contentment, wishes granted, satisfaction',
      'The wish card: emotional and material satisfaction. Enjoy it.',
      'smugness, dissatisfaction, materialism',
      'Having what you wanted does not satisfy. Look again at what you actually wish for.',
    ],
    [
      'harmony, family, lasting happiness',
      'Emotional fulfilment and a loving home: the rainbow after the rain.',
      'family conflict, broken harmony, clashing values',
      'The ideal picture does not match life at home. Repair the way you talk to each other.',
    ],
    [
      'tender message, intuition, curiosity',
      'A sweet surprise, an intuitive nudge or a tender message. Stay open.',
      'emotional immaturity, creative block, insecurity',
      'Feelings run childish or blocked. Look after your sensitive side without drowning in it.',
    ],
    [
      'romance, charm, following the heart',
      'An invitation, a romantic gesture, or an idealist following their heart.',
      'moodiness, unrealistic hopes, jealousy',
      'Grand promises and little delivery. Check whether the romance has substance.',
    ],
    [
      'compassion, emotional security, intuition',
      'Caring, intuitive and emotionally wise: you hold space for others and for yourself.',
      'dependence, martyrdom, overwhelm',
      "You soak up everyone's feelings. Set boundaries and refill your own cup.",
    ],
    [
      'emotional balance, diplomacy, calm',
      'Calm mastery of feeling; compassionate yet steady.',
      'manipulation, moodiness, volatility',
      'Feelings are being bottled up or used to control. Let them out honestly.',
    ],
  ],
  swords: [
    [
      'clarity, breakthrough, truth',
      'A sharp new idea, or the truth cutting through confusion. Speak clearly.',
      'confusion, miscommunication, clouded judgement',
      'Thinking is muddled or words are being used as weapons. Get the facts before you act.',
    ],
    [
      'stalemate, hard choice, avoidance',
      'Blindfolded between two options, you hold a tense truce. Gather what you need to know and choose.',
      'indecision, overload, truth revealed',
      'The stalemate breaks: new information arrives, or the strain becomes too much.',
    ],
    [
      'heartbreak, grief, painful truth',
      'Sorrow, rejection or a hurtful truth. Let it hurt; that is where healing begins.',
      'recovery, releasing pain, forgiveness',
      'The worst has passed. Let go of the hurt you keep replaying.',
    ],
    [
      'rest, recovery, contemplation',
      'Time to rest and recover your strength before the next challenge.',
      'restlessness, burnout, stagnation',
      'You refuse to rest, or you have rested too long. Find the balance.',
    ],
    [
      'conflict, winning at all costs, defeat',
      'A fight where winning costs more than it is worth. Consider what victory really means.',
      'reconciliation, amends, lingering resentment',
      'The dust is settling: time to make peace or walk away.',
    ],
    [
      'transition, moving on, calmer waters',
      'Leaving troubled waters for calmer ones: a necessary passage.',
      'resisted transition, unfinished business',
      'You cannot move on yet; something unresolved holds you back.',
    ],
    [
      'stealth, strategy, getting away with something',
      'Someone is acting by stealth, perhaps you. Be strategic, but stay honest.',
      'coming clean, conscience, exposure',
      'The truth comes out. Confess, or confront.',
    ],
    [
      'restriction, self-imposed limits, feeling trapped',
      'You feel trapped, but the bonds are looser than you think. Take off the blindfold.',
      'release, new perspective, freedom',
      'You begin to see the way out of a situation you thought was fixed.',
    ],
    [
      'anxiety, worry, sleepless nights',
      'Fears loom largest at three in the morning. Most of what you dread has not happened.',
      'hope, reaching out, despair lifting',
      'The anxiety starts to lift once it is shared. Talk to someone.',
    ],
    [
      'painful ending, rock bottom, betrayal',
      'A hard and final ending. It cannot get worse, so it can only get better.',
      'recovery, survival, reopened wounds',
      'You are rising from the ruins, unless you keep reopening the wound.',
    ],
    [
      'curiosity, new ideas, vigilance',
      'A sharp, curious mind eager to learn. Watch and listen.',
      'gossip, all talk, hasty words',
      'Words run ahead of action or turn cutting. Think before you speak.',
    ],
    [
      'ambition, action, fast thinking',
      'Charging at a goal with determination. Act decisively.',
      'recklessness, aggression, no plan',
      'Rushing into conflict without a plan. Aim before you charge.',
    ],
    [
      'clear boundaries, independence, honest perception',
      'Sharp, fair and independent: you cut through pretence with compassion.',
      'coldness, bitterness, harsh criticism',
      'Clarity has turned cold. Soften without losing your edge.',
    ],
    [
      'intellectual authority, truth, ethics',
      'Clear thinking and fair judgement take the lead. Decide by principle.',
      'manipulation, tyranny, abuse of power',
      'Intellect is being used to dominate. Check the ethics.',
    ],
  ],
  pentacles: [
    [
      'opportunity, prosperity, a seed in good soil',
      'A tangible opportunity: a job, money, a project with real roots. Plant it.',
      'missed opportunity, poor planning, scarcity',
      'An opening slips by or lacks a plan. Check the foundations first.',
    ],
    [
      'balance, adaptability, juggling priorities',
      'Juggling demands with flexibility; keep the rhythm.',
      'overwhelm, disorganisation, overcommitment',
      'Too many balls in the air. Put one down on purpose before you drop them all.',
    ],
    [
      'teamwork, craftsmanship, collaboration',
      'Skilled collaboration builds something worthwhile, and your work is noticed.',
      'disharmony, poor quality, no teamwork',
      'Misaligned goals or sloppy work are undermining the project.',
    ],
    [
      'security, saving, control, holding on',
      'Holding tight to what you have. Security is good; clutching is not.',
      'letting go, generosity, or careless spending',
      'Either a tight grip is loosening, or money is going out without care.',
    ],
    [
      'hardship, loss, feeling left out in the cold',
      'Hard times, material or emotional, and a sense of being shut out. Help is closer than it looks.',
      'recovery, support, improvement',
      'The worst of the hardship is ending. Accept the support on offer.',
    ],
    [
      'generosity, giving and receiving, sharing',
      'Giving and receiving flow fairly. Share what you can and accept what is offered.',
      'strings attached, debt, one-sided giving',
      'Generosity carries a hidden price or an imbalance of power.',
    ],
    [
      'patience, long-term view, assessment',
      'Pausing to check how your investment is growing. Patience before the harvest.',
      'impatience, poor returns, wasted effort',
      'The effort is not paying off. Change the approach instead of working harder.',
    ],
    [
      'diligence, skill, mastery, practice',
      'Head down, honing your craft. Repetition builds mastery.',
      'perfectionism, lost focus, joyless work',
      'The work has become joyless or obsessive. Remember why you do it.',
    ],
    [
      'abundance, self-sufficiency, earned comfort',
      'Independence and comfort earned by your own effort. Enjoy them.',
      'overwork, financial setbacks, appearances',
      'Comfort is fragile, or it was bought at the cost of your freedom.',
    ],
    [
      'legacy, wealth, family, permanence',
      'Lasting wealth and family security: what you build for the generations after you.',
      'family disputes over money, instability, loss',
      'Money or inheritance is straining family bonds. Look beyond the material.',
    ],
    [
      'ambition, study, new skill',
      'A diligent student with a practical plan; a new skill or opportunity.',
      'procrastination, little progress',
      'Plans without action. Take the first real step.',
    ],
    [
      'routine, reliability, hard work, patience',
      'Slow, steady and dependable: progress through consistency.',
      'boredom, stagnation, inertia',
      'Routine has become a rut. Steady is good; stuck is not.',
    ],
    [
      'nurturing, practicality, providing, warmth',
      'Practical care and abundance: a warm home and good sense.',
      'self-neglect, work–home imbalance, smothering',
      'You are looking after everything except yourself.',
    ],
    [
      'wealth, security, discipline, abundance',
      'Success through patient effort and sound judgement: the reliable provider.',
      'greed, stubbornness, obsession with status',
      'Money rules the heart, or rigid control is blocking growth.',
    ],
  ],
};

function split(keywords: string): string[] {
  return keywords.split(',').map((k) => k.trim());
}

function buildDeck(): TarotCard[] {
  const deck: TarotCard[] = MAJOR.map(([name, uk, u, rk, r], number) => ({
    id: `major-${String(number).padStart(2, '0')}`,
    name,
    arcana: 'major' as const,
    number,
    suit: null,
    upright: { keywords: split(uk), text: u },
    reversed: { keywords: split(rk), text: r },
  }));
  for (const suit of TAROT_SUITS) {
    MINOR[suit].forEach(([uk, u, rk, r], i) => {
      deck.push({
        id: `${suit}-${String(i + 1).padStart(2, '0')}`,
        name: `${TAROT_RANKS[i]} of ${SUITS[suit].name}`,
        arcana: 'minor',
        number: i + 1,
        suit,
        upright: { keywords: split(uk), text: u },
        reversed: { keywords: split(rk), text: r },
      });
    });
  }
  return deck;
}

/** The full deck in order: majors 0–21, then Wands, Cups, Swords, Pentacles, Ace to King. */
export const DECK: readonly TarotCard[] = Object.freeze(buildDeck());

const BY_NAME = new Map(DECK.map((c) => [c.name.toLowerCase(), c]));

export function cardByName(name: string): TarotCard | undefined {
  return BY_NAME.get(name.toLowerCase());
}

export function meaningOf(card: TarotCard, orientation: Orientation): CardMeaning {
  return orientation === 'upright' ? card.upright : card.reversed;
}
