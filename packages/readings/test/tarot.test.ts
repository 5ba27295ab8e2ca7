import { describe, expect, it } from 'vitest';
import {
  CELTIC_CROSS_POSITIONS,
  celticCrossFacts,
  celticCrossResult,
  cryptoRandom,
  DECK,
  drawCards,
  drawCelticCross,
  drawThreeCardSpread,
  seededRandom,
  THREE_CARD_POSITIONS,
  tarotTraditionalFacts,
  tarotTraditionalResult,
} from '../src/index.ts';

describe('Rider–Waite–Smith deck integrity', () => {
  it('has 78 unique cards', () => {
    expect(DECK).toHaveLength(78);
    expect(new Set(DECK.map((c) => c.name)).size).toBe(78);
    expect(new Set(DECK.map((c) => c.id)).size).toBe(78);
  });

  it('has 22 major arcana numbered 0–21 with the traditional names', () => {
    const majors = DECK.filter((c) => c.arcana === 'major');
    expect(majors.map((c) => c.number)).toEqual([...Array(22).keys()]);
    expect(majors[0]!.name).toBe('The Fool');
    expect(majors[21]!.name).toBe('The World');
    expect(majors[8]!.name).toBe('Strength'); // Waite's order: Strength VIII, Justice XI
    expect(majors[11]!.name).toBe('Justice');
    expect(majors[13]!.name).toBe('Death');
    expect(majors[16]!.name).toBe('The Tower');
  });

  it('has 14 cards per suit, Ace to King', () => {
    for (const suit of ['Wands', 'Cups', 'Swords', 'Pentacles']) {
      const cards = DECK.filter((c) => c.name.endsWith(`of ${suit}`));
      expect(cards).toHaveLength(14);
      expect(cards.map((c) => c.name.split(' ')[0])).toEqual([
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
      ]);
      expect(cards.map((c) => c.number)).toEqual([...Array(14).keys()].map((i) => i + 1));
    }
  });

  it('every card has upright and reversed meanings with keywords', () => {
    for (const card of DECK) {
      for (const m of [card.upright, card.reversed]) {
        expect(m.text.length).toBeGreaterThan(30);
        expect(m.keywords.length).toBeGreaterThanOrEqual(2);
        for (const k of m.keywords) expect(k.length).toBeGreaterThan(0);
      }
      expect(card.upright.text).not.toBe(card.reversed.text);
    }
    expect(new Set(DECK.map((c) => c.upright.text)).size).toBe(78);
  });
});

describe('Draws', () => {
  it('never repeat a card, even when the whole deck is drawn', () => {
    const all = drawCards(78, seededRandom(1));
    expect(new Set(all.map((d) => d.card.id)).size).toBe(78);
    const random = seededRandom(2);
    for (let i = 0; i < 500; i++) {
      const cross = drawCelticCross(random);
      expect(new Set(cross.map((d) => d.card.id)).size).toBe(10);
    }
  });

  it('reverses about half the cards (fixed seed, 20 000 cards)', () => {
    const random = seededRandom(42);
    let reversed = 0;
    let total = 0;
    for (let i = 0; i < 2000; i++) {
      for (const d of drawCelticCross(random)) {
        expect(['upright', 'reversed']).toContain(d.orientation);
        if (d.orientation === 'reversed') reversed++;
        total++;
      }
    }
    // σ = √(0.25 / 20 000) ≈ 0.0035: 0.015 is more than four σ.
    expect(Math.abs(reversed / total - 0.5)).toBeLessThan(0.015);
  });

  it('every card comes up about equally often first', () => {
    const random = seededRandom(7);
    const counts = new Map<string, number>();
    const n = 78 * 400;
    for (let i = 0; i < n; i++) {
      const id = drawCards(1, random)[0]!.card.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.size).toBe(78);
    for (const c of counts.values()) expect(Math.abs(c - 400)).toBeLessThan(100); // ±5σ
  });

  it('are deterministic with an injected source and random with the default one', () => {
    const a = drawThreeCardSpread(seededRandom(9)).map((d) => `${d.card.id}:${d.orientation}`);
    const b = drawThreeCardSpread(seededRandom(9)).map((d) => `${d.card.id}:${d.orientation}`);
    expect(a).toEqual(b);
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++)
      seen.add(
        drawCards(3, cryptoRandom)
          .map((d) => d.card.id)
          .join(),
      );
    expect(seen.size).toBeGreaterThan(15);
  });
});

describe('Spreads and results', () => {
  it('the three-card spread is past, present, future', () => {
    expect(THREE_CARD_POSITIONS.map((p) => p.key)).toEqual(['past', 'present', 'future']);
  });

  it('the Celtic Cross has ten traditionally named positions', () => {
    expect(CELTIC_CROSS_POSITIONS.map((p) => `${p.number} ${p.name}`)).toEqual([
      '1 The Present / Significator',
      '2 The Challenge (crossing)',
      '3 The Foundation (below / distant past)',
      '4 The Recent Past (behind)',
      '5 The Crown / Possible Outcome (above)',
      '6 The Near Future (before)',
      '7 Yourself / Your Attitude',
      '8 External Influences / Environment',
      '9 Hopes and Fears',
      '10 The Outcome',
    ]);
  });

  it('tarot traditional result carries the contract fields', () => {
    const facts = tarotTraditionalFacts(
      { firstName: 'Ana', question: 'Will I move?' },
      seededRandom(3),
    );
    const result = tarotTraditionalResult(facts, 'text');
    expect(result.readingText).toBe('text');
    expect(result.pastCardName).toBe(facts.cards[0]!.card.name);
    expect(result.presentCardName).toBe(facts.cards[1]!.card.name);
    expect(result.futureCardName).toBe(facts.cards[2]!.card.name);
    for (const o of [result.pastOrientation, result.presentOrientation, result.futureOrientation]) {
      expect(['upright', 'reversed']).toContain(o);
    }
  });

  it('Celtic Cross result has ten cards with position, name, orientation and meaning', () => {
    const facts = celticCrossFacts({ firstName: 'Ana', question: 'Work?' }, seededRandom(4));
    const result = celticCrossResult(facts, 'text');
    expect(result.text).toBe('text');
    expect(result.cards).toHaveLength(10);
    result.cards.forEach((card, i) => {
      expect(card.position).toBe(CELTIC_CROSS_POSITIONS[i]!.name);
      const deckCard = DECK.find((c) => c.name === card.name)!;
      expect(card.meaning).toBe(
        card.orientation === 'upright' ? deckCard.upright.text : deckCard.reversed.text,
      );
    });
  });
});
