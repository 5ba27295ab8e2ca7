import { z } from 'zod';
import { text as checkedText } from './common.ts';
import { birthDateFrom, birthPlaceSchema, CHART_FIRST_YEAR } from './readings.ts';

const text = (max: number) => checkedText().max(max, `must be at most ${max} characters`);
const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? null : value), schema.nullable()).optional();

/**
 * `PATCH /api/me`: any subset; `null` or "" clears a field. The e-mail is read-only.
 * `birthPlace` is a place chosen from `GET /api/places`; without one (absent or null), a
 * changed city or country is looked up in the place index, and kept as free text if not found.
 */
export const profileUpdateSchema = z.strictObject({
  firstName: clearable(text(100).min(1)),
  lastName: clearable(text(100).min(1)),
  // The profile's date is the one charts are drawn from: from 1800, as theirs.
  birthDate: clearable(birthDateFrom(CHART_FIRST_YEAR)),
  birthTime: clearable(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time (HH:MM)')),
  /** "I don't know my birth time" (the time is then cleared by the form). */
  birthTimeUnknown: clearable(z.boolean({ error: 'must be true or false' })),
  birthCity: clearable(text(120).min(1)),
  birthCountry: clearable(text(120).min(1)),
  birthPlace: birthPlaceSchema.nullable().optional(),
  language: clearable(
    z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language code such as en or de-CH'),
  ),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** Avatars: raw image bytes in the body of `PUT /api/me/avatar`. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const avatarContentTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const FEEDBACK_MAX_LENGTH = 2000;
export const feedbackRequestSchema = z.strictObject({
  message: checkedText({ multiline: true })
    .min(1, 'must not be empty')
    .max(FEEDBACK_MAX_LENGTH, `must be at most ${FEEDBACK_MAX_LENGTH} characters`),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
