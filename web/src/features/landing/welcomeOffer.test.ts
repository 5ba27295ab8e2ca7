import type { AppView } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { welcomeOffer } from './welcomeOffer';

const app = (appId: number, name: string, creditCost: number): AppView => ({
  appId,
  slug: name.toLowerCase(),
  name,
  description: '',
  creditCost,
  voiceMinutes: 5,
});
const apps = [
  app(1, 'Natal Birth Chart', 24),
  app(2, 'Tarot Celtic Cross', 12),
  app(3, 'Tarot Traditional', 4),
  app(4, 'Compatibility Reading', 8),
  app(5, 'Life Path Number', 5),
];

describe('welcomeOffer', () => {
  it('promises any first reading, the natal chart included, when the grant covers the dearest', () => {
    expect(welcomeOffer(24, apps)).toBe(
      '24 free welcome credits, enough for any first reading, a natal chart included',
    );
  });

  it('names only the readings a smaller grant pays for', () => {
    expect(welcomeOffer(10, apps)).toBe(
      '10 free welcome credits, enough for a first Tarot Traditional, Compatibility Reading or Life Path Number',
    );
    expect(welcomeOffer(4, apps)).toBe(
      '4 free welcome credits, enough for a first Tarot Traditional',
    );
    expect(welcomeOffer(3, apps)).toBe('3 free welcome credits toward your first reading');
  });

  it('promises nothing without a grant, or before the server has said', () => {
    expect(welcomeOffer(0, apps)).toBeNull();
    expect(welcomeOffer(undefined, apps)).toBeNull();
    expect(welcomeOffer(24, undefined)).toBeNull();
  });
});
