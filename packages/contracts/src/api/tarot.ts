/**
 * The minor arcana's four suits, in deck order, as card ids spell them ('cups-12'). Shared by the
 * deck (packages/readings) and the card faces of the web app, which cannot import the deck.
 */
export const TAROT_SUITS = ['wands', 'cups', 'swords', 'pentacles'] as const;
export type TarotSuit = (typeof TAROT_SUITS)[number];

/** The ranks of a minor suit, Ace (card number 1) to King (14), as card names spell them. */
export const TAROT_RANKS = [
  'Ace',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Page',
  'Knight',
  'Queen',
  'King',
] as const;
