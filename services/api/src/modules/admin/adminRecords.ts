import type { AdminRecord } from '@astra/ledger';
import type { Request } from 'express';
import type { Ledger } from '../../ledger/ledger.ts';

/**
 * Records what the acting admin did (a download, a verify run, a rebuild, a lock, a refused
 * unlock) on their own user stream, with them as actor and the request's correlation id
 * (`RecordAdminAction`, docs/events.md). The admin activity list reads these events back.
 */
export function recordAdminAction(ledger: Ledger, req: Request, action: AdminRecord) {
  return ledger.handle('user', req.user!.id, { type: 'RecordAdminAction', action }, req.context);
}

/**
 * The same after the action took place (a lock, a verify run, a rebuild started, a streamed
 * download that ended, a refusal): its answer is the action's, so a record that could not be
 * written is logged as an error instead of turning a done action into a 500. A download that is
 * not sent yet (the month report) records first with `recordAdminAction`, and is refused if that
 * fails.
 */
export async function recordAdminActionAfter(ledger: Ledger, req: Request, action: AdminRecord) {
  try {
    await recordAdminAction(ledger, req, action);
  } catch (error) {
    req.log?.error({ err: error, action: action.type }, 'The admin action was not recorded');
  }
}
