import type { Me } from '@astra/contracts';

type BirthFields = Pick<
  Me,
  'birthDate' | 'birthTime' | 'birthTimeUnknown' | 'birthCity' | 'birthCountry'
>;

/** Onboarding is done once date, city and country are known (spec §5). */
export const hasOnboardingBirthData = (me: BirthFields): boolean =>
  Boolean(me.birthDate && me.birthCity && me.birthCountry);

/**
 * The dashboard asks for date, time and city, which readings need for accuracy (spec §5); a
 * time the person said they do not know is not asked for again.
 */
export const hasDashboardBirthData = (me: BirthFields): boolean =>
  Boolean(me.birthDate && (me.birthTime || me.birthTimeUnknown) && me.birthCity);
