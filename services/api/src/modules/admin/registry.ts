import { SCHEMA_VERSION, streamDecoders } from '@astra/contracts';
import { CommandHandler } from '@astra/event-store';
import {
  ADMINS_STREAM,
  type AdminRegistry,
  type AdminRegistryCommand,
  type AdminRegistryEvent,
  adminRegistryDecider,
  registeredAdmins,
  type User,
} from '@astra/ledger';
import type { CommandContext, Ledger } from '../../ledger/ledger.ts';

/** One handler per ledger (so per process): commands on `admins` run one at a time here. */
const handlers = new WeakMap<Ledger, CommandHandler<AdminRegistry, AdminRegistryEvent>>();

const handlerOf = (ledger: Ledger) => {
  let handler = handlers.get(ledger);
  if (!handler) {
    handler = new CommandHandler(ledger.store, adminRegistryDecider, {
      decode: streamDecoders.admins,
      cacheSize: 1,
    });
    handlers.set(ledger, handler);
  }
  return handler;
};

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
  const handler = handlerOf(ledger);
  const registry = await handler.load(ADMINS_STREAM);
  const ids = new Set([command.actorId, command.targetId, ...registeredAdmins(registry.state)]);
  const verified: Record<string, boolean> = {};
  for (const id of ids) verified[id] = isAdmin((await ledger.userOf(id)).state);
  const full = { ...command, verified } as AdminRegistryCommand;
  return handler.handle(ADMINS_STREAM, (state) => adminRegistryDecider.decide(full, state), {
    occurredAt: new Date().toISOString(),
    actor: context.actor,
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
    schemaVersion: SCHEMA_VERSION,
  });
}
