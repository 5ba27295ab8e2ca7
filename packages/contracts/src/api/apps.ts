import { z } from 'zod';
import { voicePricingSchema } from './voice.ts';

/** `GET /api/apps`: the reading apps (one per reading kind) with their credit cost now. */
export const appViewSchema = z.object({
  appId: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  creditCost: z.number().int(),
  voiceMinutes: z.number().int(),
});
export type AppView = z.infer<typeof appViewSchema>;
export const appsResponseSchema = z.object({
  items: z.array(appViewSchema),
  /** The voice guide's session length and reactivation price (configuration, never hard-coded). */
  voice: voicePricingSchema,
  /** The free welcome credits a new account receives (configuration `FREE_CREDITS`; 0 = none). */
  welcomeCredits: z.number().int(),
});
export type AppsResponse = z.infer<typeof appsResponseSchema>;
