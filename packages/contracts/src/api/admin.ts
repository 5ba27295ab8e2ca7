import { z } from 'zod';
import { ledgerEntryViewSchema } from './me.ts';

export const adminUnlockRequestSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(1000),
});

export const MAX_ADMIN_ADJUSTMENT = 1_000_000;

export const adminCreditRequestSchema = z.strictObject({
  amount: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(-MAX_ADMIN_ADJUSTMENT)
    .max(MAX_ADMIN_ADJUSTMENT)
    .refine((amount) => amount !== 0, 'must not be 0'),
  reason: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500),
});
export type AdminCreditRequest = z.infer<typeof adminCreditRequestSchema>;

export const adminCreditResponseSchema = z.object({
  userId: z.string(),
  amount: z.number().int(),
  remainingCredits: z.number().int(),
  position: z.string(),
});

export const adminUserLedgerSchema = z.object({
  user: z.object({ id: z.string(), email: z.string().nullable(), fullName: z.string().nullable() }),
  items: z.array(ledgerEntryViewSchema),
  total: z.number().int(),
});
export type AdminUserLedger = z.infer<typeof adminUserLedgerSchema>;
