import { createHash, randomUUID } from 'node:crypto';
import type { Request } from 'express';

/**
 * The id of a command a request creates (a reading, a spend, a feedback message, an admin
 * adjustment). With an `Idempotency-Key` it is derived from the key, so a request run again
 * after a crash (its claim's lease ran out) names the same command and the deciders apply it
 * once; without a key every request is a new command.
 */
export function commandIdOf(req: Request, purpose: string): string {
  if (!req.idempotencyKey) return randomUUID();
  const hash = createHash('sha256').update(`${purpose}\n${req.idempotencyKey}`).digest('hex');
  // A version-8 (custom) UUID, so it validates wherever a UUID is expected.
  const variant = ((Number.parseInt(hash[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-8${hash.slice(13, 16)}-${variant}${hash.slice(17, 20)}-${hash.slice(20, 32)}`;
}
