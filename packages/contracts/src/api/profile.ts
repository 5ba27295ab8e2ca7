import { z } from 'zod';
import { text as checkedText } from './common.ts';

const text = (max: number) => checkedText().max(max, `must be at most ${max} characters`);
const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? null : value), schema.nullable()).optional();

/** `PATCH /api/me`: any subset; `null` or "" clears a field. The e-mail is read-only. */
export const profileUpdateSchema = z.strictObject({
  firstName: clearable(text(100).min(1)),
  lastName: clearable(text(100).min(1)),
  birthDate: clearable(
    z.iso
      // `abort`: a value that is no date gets that one message, not the range checks' too.
      .date({ error: 'must be a date (YYYY-MM-DD)', abort: true })
      .refine((day) => day >= '1900-01-01', 'must be in 1900 or later')
      .refine((day) => day <= new Date().toISOString().slice(0, 10), 'must not be in the future'),
  ),
  birthTime: clearable(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time (HH:MM)')),
  birthCity: clearable(text(120).min(1)),
  birthCountry: clearable(text(120).min(1)),
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
