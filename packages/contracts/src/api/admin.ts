import { z } from 'zod';
import { text } from './common.ts';
import { ledgerEntryViewSchema } from './me.ts';

export const adminUnlockRequestSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(1000),
});

export const MAX_ADMIN_ADJUSTMENT = 1_000_000;
const ADJUSTMENT_RANGE = `must be between -${MAX_ADMIN_ADJUSTMENT.toLocaleString('en')} and ${MAX_ADMIN_ADJUSTMENT.toLocaleString('en')}`;

export const adminCreditRequestSchema = z.strictObject({
  amount: z
    // The type's message only: a number out of range is told its range, not "must be a number".
    .number({
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : issue.input === undefined
            ? 'is required'
            : 'must be a number',
    })
    .int('must be a whole number')
    .min(-MAX_ADMIN_ADJUSTMENT, ADJUSTMENT_RANGE)
    .max(MAX_ADMIN_ADJUSTMENT, ADJUSTMENT_RANGE)
    .refine((amount) => amount !== 0, 'must not be 0'),
  reason: text().min(1, 'is required').max(500, 'must be at most 500 characters'),
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
