export * from './astro/aspects.ts';
export { EPHEMERIS_PATH, julianDayUT, swissEphemerisVersion } from './astro/ephemeris.ts';
export * from './astro/natalChart.ts';
export * from './astro/zodiac.ts';
export * from './compatibility/relationshipScore.ts';
export * from './errors.ts';
export * from './facts.ts';
export * from './numerology/meanings.ts';
export * from './numerology/numerology.ts';
export { countryInfo, countryName, resolveCountry } from './places/countries.ts';
export { fold } from './places/fold.ts';
export * from './places/places.ts';
export * from './results.ts';
export * from './tarot/deck.ts';
export * from './tarot/random.ts';
export * from './tarot/spreads.ts';
export * from './time/localTime.ts';
export { questionTheme } from './writer/offline/tarotText.ts';
export { offlineText, offlineWriter } from './writer/offlineWriter.ts';
export {
  type NarrativeWriter,
  streamingWriter,
  type WriteOptions,
  type WriterTexts,
  writerTexts,
} from './writer/port.ts';
export { type Prompt, promptFor } from './writer/prompts.ts';
