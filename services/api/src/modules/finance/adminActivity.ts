import {
  ADMIN_ACTIVITY_TYPES,
  ADMIN_COMMAND_TYPES,
  ADMIN_OWN_STREAM_TYPES,
  type AdminActivityEntry,
  type AdminActivityPage,
  decodeEvent,
  ledgerEntryCodeOf,
  ledgerEntryLabel,
} from '@astra/contracts';
import type { EventStore, RecordedEvent } from '@astra/event-store';
import { streamId } from '@astra/ledger';
import { occurredAtOf } from '@astra/projections';
import { actingUserOf, actorKindOf, EmailBook } from './ledgerExplorer.ts';

const OWN_STREAM: readonly string[] = ADMIN_OWN_STREAM_TYPES;
const ADMIN_COMMANDS: readonly string[] = ADMIN_COMMAND_TYPES;
/** The rest (`ADMIN_DELETION_TYPES`) count when an admin deleted someone else. */
export const ACTIVITY_TYPES: readonly string[] = ADMIN_ACTIVITY_TYPES;

/** The most events of those types one activity page looks at (see `EXPLORER_SCAN_LIMIT`). */
export const ACTIVITY_SCAN_LIMIT = 10_000;

/** The user an event is about: the owner of its `user-` or `credits-` stream. */
const targetOf = (recorded: RecordedEvent) =>
  streamId(recorded.stream, 'user') ?? streamId(recorded.stream, 'credits');

/** Whether an event of `ACTIVITY_TYPES` is something an admin did as admin. */
const isAdminActivity = (recorded: RecordedEvent) => {
  if (OWN_STREAM.includes(recorded.type)) return true;
  if (actorKindOf(recorded) !== 'admin') return false;
  if (ADMIN_COMMANDS.includes(recorded.type)) return true;
  return targetOf(recorded) !== actingUserOf(recorded);
};

const signed = (amount: number) => (amount > 0 ? `+${amount}` : `−${-amount}`);

type Exported = Extract<ReturnType<typeof decodeEvent>, { type: 'AdminDataExported' }>['data'];

/** "Downloaded the ledger export (csv, 2026-11-01T… to the end): 12 rows, 3456 bytes, SHA-256 …". */
const exportDetail = (data: Exported) => {
  const what =
    data.kind === 'report'
      ? `the month report ${data.month ?? ''}`.trimEnd()
      : `the ledger export ${data.from ?? 'the start'} to ${data.to ?? 'the end'}`;
  const rows = data.rows === undefined ? '' : `${data.rows} rows, `;
  return data.complete
    ? `Downloaded ${what} (${data.format}): ${rows}${data.bytes} bytes, SHA-256 ${data.sha256}`
    : `Download of ${what} (${data.format}) cut short: ${rows}${data.bytes} bytes sent, no checksum`;
};

/** The one line the activity list shows for an event. */
export const activityDetail = (recorded: RecordedEvent): string => {
  const event = decodeEvent(recorded);
  switch (event.type) {
    case 'AdminUnlocked':
      return event.data.until
        ? `Unlocked the admin panel until ${event.data.until}`
        : 'Unlocked the admin panel';
    case 'AdminUnlockFailed':
      return 'Wrong admin password';
    case 'AdminUnlockRefused':
      return event.data.reason === 'blocked'
        ? 'Unlock refused: this admin is blocked'
        : 'Unlock refused: too many attempts in a minute (rate limited)';
    case 'AdminLocked':
      return 'Locked the admin panel';
    case 'AdminExportStarted':
      return `Started the ledger export ${event.data.from ?? 'the start'} to ${event.data.to ?? 'the end'} (${event.data.format})`;
    case 'AdminDataExported':
      return exportDetail(event.data);
    case 'AdminVerifyRun':
      return `Ran ledger:verify (run at ${event.data.at}): ${event.data.ok ? 'ok' : 'problems found'}`;
    case 'MonthClosed':
      return `Closed the month ${event.data.month} (${event.data.timeZone}) through position ${event.data.through}: report SHA-256 ${event.data.sha256}`;
    case 'AdminRebuildStarted':
      return `Started a rebuild of the read models (run ${event.data.rebuildId}, ${event.data.target} events in the log)`;
    case 'UserBlocked':
      return 'Blocked the user';
    case 'UserUnblocked':
      return 'Unblocked the user';
    case 'UserRoleChanged':
      return `Changed the role to ${event.data.role}`;
    case 'UserDeleted':
      return `Deleted the user (${event.data.reason})`;
    case 'CreditsAdjusted':
      return `${signed(event.data.amount)} credits: ${event.data.reason}`;
    case 'CreditsForfeited':
      return `${event.data.amount} credits forfeited (${event.data.reason})`;
    case 'CreditAccountClosed':
    case 'SubscriptionEnded':
      return `${ledgerEntryLabel(ledgerEntryCodeOf(event), 'staff')} (${event.data.reason})`;
    default:
      return event.type;
  }
};

/**
 * `GET /api/admin/activity`: what admins did, newest first, before position `before`.
 *
 * The log is read backwards, filtered in the store by type (`ACTIVITY_TYPES`: on PostgreSQL each
 * type's events are walked newest first on `events_type_position`, so a page costs about its own
 * size however long the log is); each event is then kept if an admin did it as admin: every
 * unlock attempt, every admin command by an actor in the admin role, and a deletion's events
 * when an admin deleted someone else. A page looks at `ACTIVITY_SCAN_LIMIT` events at most and
 * then answers with `next` so the client goes on.
 */
export async function activityPage(
  store: EventStore,
  { before, limit, type }: { before?: string; limit: number; type?: readonly string[] },
  { scanLimit = ACTIVITY_SCAN_LIMIT }: { scanLimit?: number } = {},
): Promise<AdminActivityPage> {
  const picked: RecordedEvent[] = [];
  let scanned = 0;
  let last: bigint | null = null;
  let cut = false;
  for await (const recorded of store.readAll({
    direction: 'backwards',
    ...(before ? { from: BigInt(before) } : {}),
    batch: Math.min(limit * 2, 500),
    filter: { types: type?.length ? type : ACTIVITY_TYPES },
  })) {
    scanned++;
    last = recorded.position;
    if (isAdminActivity(recorded)) picked.push(recorded);
    if (picked.length === limit || scanned === scanLimit) {
      cut = true;
      break;
    }
  }
  const emails = new EmailBook(store);
  const items = await Promise.all(
    picked.map(async (recorded): Promise<AdminActivityEntry> => {
      const adminId = actingUserOf(recorded) ?? targetOf(recorded) ?? '';
      const targetUserId = targetOf(recorded);
      const [adminEmail, targetEmail] = await Promise.all([
        adminId ? emails.of(adminId) : null,
        targetUserId ? emails.of(targetUserId) : null,
      ]);
      const correlationId = recorded.metadata.correlationId;
      return {
        position: String(recorded.position),
        occurredAt: occurredAtOf(recorded),
        adminId,
        adminEmail,
        action: recorded.type,
        targetUserId,
        targetEmail,
        detail: activityDetail(recorded),
        correlationId: typeof correlationId === 'string' ? correlationId : '',
      };
    }),
  );
  const full = picked.length === limit;
  return { items, next: cut ? String(full ? picked.at(-1)!.position : last) : null };
}
