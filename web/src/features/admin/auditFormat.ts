import {
  type AuditCause,
  adminMessages,
  type CreditEventType,
  ERASED_EMAIL,
  type MoneyAmount,
} from '@astra/contracts';
import { formatMinor } from './adminFormat';

/** The types that move credits or money, first: the ones an auditor filters by most. */
export const EVENT_TYPES: CreditEventType[] = [
  'FreeCreditsGranted',
  'CreditsGranted',
  'MonthlyCreditsGranted',
  'CreditsSpent',
  'SpendRefunded',
  'CreditsAdjusted',
  'RolloverForfeited',
  'PurchaseReversed',
  'PaymentRefunded',
  'PurchaseRefundPending',
  'DisputeOpened',
  'DisputeClosed',
  'CreditsForfeited',
  'CreditAccountOpened',
  'CreditAccountClosed',
  'SubscriptionActivated',
  'SubscriptionCheckoutStarted',
  'SubscriptionCheckoutClosed',
  'SubscriptionPlanChanged',
  'SubscriptionCancelled',
  'SubscriptionEnded',
];

export type ActorView = { kind: 'user' | 'admin' | 'system' | 'stripe' | 'other'; who: string };

/** `user:{id}`, `admin:{e-mail}`, `system`, `stripe` as a kind and who. */
export function parseActor(actor: string): ActorView {
  const colon = actor.indexOf(':');
  const kind = colon < 0 ? actor : actor.slice(0, colon);
  const who = colon < 0 ? '' : actor.slice(colon + 1);
  if (kind === 'user' || kind === 'admin' || kind === 'system' || kind === 'stripe') {
    return { kind, who };
  }
  return { kind: 'other', who: actor };
}

export const ACTOR_PALETTE: Record<ActorView['kind'], string> = {
  user: 'gray',
  admin: 'orange',
  system: 'blue',
  stripe: 'purple',
  other: 'gray',
};

/**
 * An event's cause as named pairs, from its typed fields (`causeFields`), in their order: never
 * parsed out of the display text, where a reason can pass for more pairs.
 */
export function causePairs(cause: AuditCause): { key: string; value: string }[] {
  const pairs: { key: string; value: string }[] = [];
  for (const [key, value] of Object.entries(cause)) {
    if (value === null) continue;
    if (typeof value === 'object') {
      for (const [id, text] of Object.entries(value)) pairs.push({ key: id, value: text });
    } else pairs.push({ key, value: String(value) });
  }
  return pairs;
}

/** Signed money: '+€5.00', '−€5.00'. */
export function formatSignedMoney({ minor, currency }: MoneyAmount): string {
  const text = formatMinor(Math.abs(minor), currency);
  return minor > 0 ? `+${text}` : minor < 0 ? `−${text}` : text;
}

/** Amounts in several currencies: '€5.00 · $3.00', or '—' for none. */
export const formatMoneyList = (amounts: MoneyAmount[]) =>
  amounts.length === 0
    ? '—'
    : amounts.map((amount) => formatMinor(amount.minor, amount.currency)).join(' · ');

/** A signed whole number of credits: '+25', '−5', '0'. */
export const formatSignedCredits = (credits: number) =>
  credits > 0
    ? `+${credits.toLocaleString('en-US')}`
    : credits < 0
      ? `−${Math.abs(credits).toLocaleString('en-US')}`
      : '0';

/** The month of UTC now, `YYYY-MM`. */
export const currentUtcMonth = () => new Date().toISOString().slice(0, 7);

/** `2025-03` as 'March 2025'. */
export const formatMonth = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The first and last day (`YYYY-MM-DD`, UTC) of a month. */
export function monthDays(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
  return { first: `${month}-01`, last };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC day's first instant: '2025-03-07' → '2025-03-07T00:00:00.000Z' (undefined if blank). */
export const dayStart = (day: string) =>
  DAY.test(day) ? new Date(`${day}T00:00:00Z`).toISOString() : undefined;

/** The instant after a UTC day ends, for half-open ranges that include the whole day. */
export const dayEndExclusive = (day: string) => {
  if (!DAY.test(day)) return undefined;
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
};

/** An instant as the value of a `datetime-local` input, in the browser's time zone, to the second. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const base =
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return date.getMilliseconds() ? `${base}.${pad(date.getMilliseconds(), 3)}` : base;
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant, or undefined. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * An instant to the second with its time zone (the browser's, or `timeZone`), for tables:
 * 'Mar 7, 2025, 14:03:09 GMT+1' ('… UTC' where the browser keeps UTC).
 */
export const formatInstant = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleString('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });

const UUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;
export const isUserId = (value: string) => UUID.test(value);

/** The panel's address of a user's audit ledger. */
export const userLedgerPath = (userId: string) =>
  `/admin?tab=ledger&user=${encodeURIComponent(userId)}`;

/**
 * How the audit names a user: their e-mail, else the start of their id; a user whose personal
 * data is erased (the log names `ERASED_EMAIL`) as "Erased user" with that id.
 */
export const userLabel = (email: string | null, userId: string) => {
  const shortId = `${userId.slice(0, 8)}…`;
  if (email === ERASED_EMAIL) return `${adminMessages.erasedUser} ${shortId}`;
  return email ?? shortId;
};
