import { z } from 'zod';

export const devLoginRequestSchema = z.strictObject({
  email: z.email('must be an e-mail address').max(254),
  fullName: z.string().trim().min(1).max(200).optional(),
});
export type DevLoginRequest = z.infer<typeof devLoginRequestSchema>;
