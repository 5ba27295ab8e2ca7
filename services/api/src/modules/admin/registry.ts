import { type AdminRegistryCommand, registeredAdmins, type User } from '@astra/ledger';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';

/** An admin on their own stream: live, with the admin role. */
export const isAdmin = (user: User) => user.status !== 'deleted' && user.role === 'admin';

/**
 * A role-removing or role-giving admin action through the `admins` registry (docs/events.md,
 * "the last-admin rule"): reads the acting admin's, the target's and every registered admin's
 * user stream, then decides on the registry's stream at its expected revision, so that of two
 * demotions racing for the last two admins only one can pass (here and across processes).
 * Runs before the user stream's own `ChangeRole` / `DeleteUser`.
 */
export async function changeAdminRegistry(
  ledger: Ledger,
  command:
    | { type: 'RevokeAdmin'; actorId: string; targetId: string; reason: 'demoted' | 'deleted' }
    | { type: 'GrantAdmin'; actorId: string; targetId: string },
  context: CommandContext,
) {
  const registry = await ledger.load('admins', null);
  const ids = new Set([command.actorId, command.targetId, ...registeredAdmins(registry.state)]);
  const verified: Record<string, boolean> = {};
  for (const id of ids) verified[id] = isAdmin((await ledger.load('user', id)).state);
  const full: AdminRegistryCommand = { ...command, verified };
  return ledger.handle('admins', null, full, context);
}
