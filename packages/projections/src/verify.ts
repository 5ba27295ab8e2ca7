import { streamDecoders } from '@astra/contracts';
import type { EventStore } from '@astra/event-store';
import {
  type AccountMoney,
  addMoney,
  balanceChange,
  bookBalance,
  type CreditAccount,
  clearingAccountedOf,
  clearingOf,
  creditAccountDecider,
  deferredOf,
  evolveVoice,
  initialVoice,
  isVoiceEvent,
  lotsBalance,
  lotTotals,
  type MoneyTotals,
  noMoney,
  SPENDING_ORDER,
  streamId,
  streams,
  type Voice,
} from '@astra/ledger';
import type { Kysely } from 'kysely';
import { checkpointOf } from './checkpoints.ts';
import { READ_SCHEMA, readModels } from './database.ts';
import { CreditBooks } from './finance/creditLog.ts';
import { allProjections } from './projections/index.ts';

export interface VerifyReport {
  accounts: number;
  events: number;
  position: bigint;
  differences: string[];
  /** The log's last position when the replay read it. */
  head: bigint;
  /** Voice guide reactivations that stand (charged, not given back), and their credits. */
  voiceReactivations: { count: number; credits: number };
  /** Projections whose checkpoint stayed behind the head (a failed or stopped projector). */
  behind: { name: string; position: bigint; head: bigint }[];
  /**
   * The money invariant per currency (minor units, alphabetical): Stripe's balance (payments less
   * refunds, fees and payouts) = recognized to date + admin deductions to date + deferred now
   * (the value of the paid credits the accounts' lots hold) + tax payable − fees − paid out. A
   * difference is listed in `differences`.
   */
  money: MoneyInvariant[];
}

export interface MoneyInvariant {
  currency: string;
  cashToDate: number;
  recognizedToDate: number;
  /** Value of paid credits admins deducted (not revenue from use). */
  adminDeductionsToDate: number;
  /** The value the lots hold at the end of the replay. */
  deferred: number;
  /** Tax of payments less tax of refunds: owed to the authorities. */
  taxPayable: number;
  /** Stripe's fees of the payouts' balance transactions (an expense). */
  feesToDate: number;
  /** What payouts took from Stripe's balance to the bank. */
  paidOutToDate: number;
  /** What disputes withdrew from Stripe's balance, less what won ones returned (an expense). */
  disputesToDate: number;
}

/** The line `ledger:verify` (and the admin panel's verify run) prints for a currency's money. */
export const moneyInvariantLine = (m: MoneyInvariant) => {
  const totals = {
    cash: m.cashToDate,
    recognized: m.recognizedToDate,
    adminDeducted: m.adminDeductionsToDate,
    deferred: m.deferred,
    taxPayable: m.taxPayable,
    fees: m.feesToDate,
    paidOut: m.paidOutToDate,
    disputes: m.disputesToDate,
  };
  const holds = clearingOf(totals) === clearingAccountedOf(totals);
  return `Money in ${m.currency} (minor units): Stripe's balance ${clearingOf(totals)} (cash to date ${m.cashToDate} − fees ${totals.fees} − paid out ${totals.paidOut} − disputes ${totals.disputes}) ${holds ? '=' : '≠'} recognized to date ${m.recognizedToDate} + admin deductions to date ${m.adminDeductionsToDate} + deferred now ${m.deferred} + tax payable ${m.taxPayable} − fees − paid out − disputes`;
};

export interface VerifyOptions {
  /**
   * How long a projection may take to reach the head before it counts as behind (a live
   * projector is usually there within milliseconds). Default 10 s.
   */
  lagGraceMs?: number;
}

/**
 * Replays every credit stream through the ledger's own `evolve` and compares the result with
 * `profiles` and `ledger_entries`, each as of its own checkpoint (projectors may run apart).
 * Any difference is listed.
 */
export async function verifyLedger(
  store: EventStore,
  db: Kysely<unknown>,
  { lagGraceMs = 10_000 }: VerifyOptions = {},
): Promise<VerifyReport> {
  // One snapshot of the read models, taken with the checkpoint it belongs to.
  const snapshot = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const read = readModels(trx);
      const profilesAt = await checkpointOf(trx, READ_SCHEMA, ['profiles']);
      const entriesAt = await checkpointOf(trx, READ_SCHEMA, ['ledger_entries']);
      const profiles = await read
        .selectFrom('profiles')
        .select([
          'id',
          'remaining_credits',
          'credits',
          'subscription_credits',
          'free_credits',
          'promotional_credits',
          'purchased_credits',
        ])
        .execute();
      const entries = await read
        .selectFrom('ledger_entries')
        .select([
          'event_id',
          'user_id',
          'position',
          'stream_revision',
          'type',
          'amount',
          'balance_after',
        ])
        .execute();
      return { profilesAt, entriesAt, profiles, entries };
    });
  const until = snapshot.profilesAt > snapshot.entriesAt ? snapshot.profilesAt : snapshot.entriesAt;

  const accounts = new Map<string, CreditAccount>();
  // The accounts as of the profiles' checkpoint (states are immutable: a shallow copy keeps them).
  let accountsAtProfiles: Map<string, CreditAccount> | undefined;
  const expected = new Map<
    string,
    {
      userId: string;
      position: bigint;
      revision: bigint;
      type: string;
      amount: number;
      balanceAfter: number;
    }
  >();
  // Voice reactivations from both sides: the credit streams' spends, the readings' sessions.
  const voiceSpends = new Map<string, VoiceSpend>();
  const readingVoices = new Map<string, Voice>();
  // The money behind the credits, by the ledger's own money fold (`bookMoney`), per account,
  // with each event's effects summed by currency.
  const money = await CreditBooks.forLog(store);
  const booked = new Map<string, MoneyTotals>();
  // The whole log is read: its last position is the head every projection must reach.
  let head = 0n;
  for await (const event of store.readAll()) {
    head = event.position;
    if (event.position > until) continue;
    if (event.position > snapshot.profilesAt) accountsAtProfiles ??= new Map(accounts);
    const readingId = streamId(event.stream, 'reading');
    if (readingId !== null && event.type.startsWith('Voice')) {
      const reading = streamDecoders.reading(event);
      if (isVoiceEvent(reading)) {
        const voice = readingVoices.get(readingId) ?? initialVoice();
        readingVoices.set(readingId, evolveVoice(voice, reading));
      }
      continue;
    }
    if (event.stream === streams.stripeBalance(null)) {
      addMoney(booked, bookBalance(streamDecoders.stripeBalance(event)));
      continue;
    }
    const userId = streamId(event.stream, 'credits');
    if (userId === null) continue;
    const credit = streamDecoders.credits(event);
    if (credit.type === 'CreditsSpent' && credit.data.purpose === 'voice_reactivation') {
      const { spendId, readingId: paidFor, amount } = credit.data;
      voiceSpends.set(spendId, { userId, readingId: paidFor, amount, refunded: false });
    }
    if (credit.type === 'SpendRefunded') {
      const spend = voiceSpends.get(credit.data.spendId);
      if (spend) spend.refunded = true;
    }
    const state = creditAccountDecider.evolve(
      accounts.get(userId) ?? creditAccountDecider.initialState(),
      credit,
    );
    accounts.set(userId, state);
    if (money.missesSpend(credit)) await money.restoreSpend(credit);
    addMoney(booked, money.book(userId, credit));
    if (event.position > snapshot.entriesAt) continue;
    expected.set(event.id, {
      userId,
      position: event.position,
      revision: event.revision,
      type: event.type,
      amount: balanceChange(credit),
      balanceAfter: state.balance,
    });
  }

  const differences: string[] = [];
  const atProfiles = accountsAtProfiles ?? accounts;
  const profiles = new Map(snapshot.profiles.map((p) => [p.id, p]));
  for (const [userId, state] of atProfiles) {
    const profile = profiles.get(userId);
    if (!profile) {
      differences.push(`profile ${userId}: missing (ledger balance ${state.balance})`);
      continue;
    }
    if (profile.remaining_credits !== state.balance) {
      differences.push(
        `profile ${userId}: remaining_credits ${profile.remaining_credits}, ledger says ${state.balance}`,
      );
    }
    if (profile.credits !== state.totalGranted) {
      differences.push(
        `profile ${userId}: credits ${profile.credits}, ledger says ${state.totalGranted}`,
      );
    }
    const lots = lotTotals(state.lots);
    for (const source of SPENDING_ORDER) {
      const shown = profile[`${source}_credits`];
      if (shown !== lots[source]) {
        differences.push(
          `profile ${userId}: ${source}_credits ${shown}, ledger says ${lots[source]}`,
        );
      }
    }
    if (lotsBalance(state.lots) !== state.balance) {
      differences.push(
        `ledger ${userId}: lots hold ${lotsBalance(state.lots)}, balance is ${state.balance}`,
      );
    }
  }
  for (const profile of snapshot.profiles) {
    if (!atProfiles.has(profile.id) && (profile.remaining_credits !== 0 || profile.credits !== 0)) {
      differences.push(`profile ${profile.id}: has credits but no credit stream`);
    }
  }
  const seen = new Set<string>();
  for (const entry of snapshot.entries) {
    seen.add(entry.event_id);
    const want = expected.get(entry.event_id);
    if (!want) {
      differences.push(`ledger entry ${entry.event_id}: no such credit event`);
      continue;
    }
    const got = {
      userId: entry.user_id,
      position: BigInt(entry.position),
      revision: BigInt(entry.stream_revision),
      type: entry.type,
      amount: entry.amount,
      balanceAfter: entry.balance_after,
    };
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      if (got[key] !== want[key]) {
        differences.push(
          `ledger entry ${entry.event_id}: ${key} ${String(got[key])}, ledger says ${String(want[key])}`,
        );
      }
    }
  }
  for (const [eventId, want] of expected) {
    if (!seen.has(eventId))
      differences.push(`ledger entry ${eventId} (${want.type} of ${want.userId}): missing`);
  }
  const closed = new Set(
    [...accounts].filter(([, account]) => account.status === 'closed').map(([id]) => id),
  );
  const voiceReactivations = compareVoice(voiceSpends, readingVoices, closed, differences);
  return {
    money: compareMoney(booked, money.accounts, differences),
    voiceReactivations,
    accounts: accounts.size,
    events: expected.size,
    position: until,
    differences,
    head,
    behind: await projectionsBehind(db, head, lagGraceMs),
  };
}

/**
 * The money invariant in each currency: Stripe's balance (cash to date − fees − paid out) =
 * recognized to date + admin deductions to date + deferred + tax payable − fees − paid out, where
 * deferred is both the sum of the events' deferred effects and the value the lots hold at the
 * end (the two must agree, to the minor unit).
 */
function compareMoney(
  booked: Map<string, MoneyTotals>,
  accounts: Map<string, AccountMoney>,
  differences: string[],
): MoneyInvariant[] {
  const held = new Map<string, number>();
  for (const account of accounts.values()) {
    if (account.values.size === 0) continue;
    for (const { currency, minor } of deferredOf(account))
      held.set(currency, (held.get(currency) ?? 0) + minor);
  }
  const currencies = [...new Set([...booked.keys(), ...held.keys()])].sort();
  return currencies.map((currency) => {
    const totals = booked.get(currency) ?? noMoney();
    const { cash, recognized, adminDeducted, deferred, taxPayable, fees, paidOut, disputes } =
      totals;
    const lots = held.get(currency) ?? 0;
    const clearing = clearingOf(totals);
    const accounted = clearingAccountedOf(totals);
    if (clearing !== accounted) {
      differences.push(
        `money ${currency}: Stripe's balance ${clearing} ≠ recognized to date ${recognized} + admin deductions to date ${adminDeducted} + deferred ${deferred} + tax payable ${taxPayable} − fees ${fees} − paid out ${paidOut} − disputes ${disputes} (minor units, off by ${clearing - accounted})`,
      );
    }
    if (deferred !== lots) {
      differences.push(
        `money ${currency}: the events deferred ${deferred}, the lots hold ${lots} (minor units, off by ${deferred - lots})`,
      );
    }
    return {
      currency,
      cashToDate: cash,
      recognizedToDate: recognized,
      adminDeductionsToDate: adminDeducted,
      deferred: lots,
      taxPayable,
      feesToDate: fees,
      paidOutToDate: paidOut,
      disputesToDate: disputes,
    };
  });
}

interface VoiceSpend {
  userId: string;
  readingId: string | null;
  amount: number;
  refunded: boolean;
}

/**
 * Each reading's voice credits as its stream says them, against the credit streams' standing
 * voice_reactivation spends for it. A reading with a start or refund under way (its saga between
 * two streams) is skipped; any other difference is money without a session, or the reverse.
 */
function compareVoice(
  spends: Map<string, VoiceSpend>,
  voices: Map<string, Voice>,
  closedAccounts: Set<string>,
  differences: string[],
) {
  const standing = new Map<string, number>();
  const forfeited = new Set<string>();
  let count = 0;
  let credits = 0;
  for (const spend of spends.values()) {
    if (spend.refunded) continue;
    count++;
    credits += spend.amount;
    // A spend that names no reading (a tool's) has no sessions to be compared with.
    if (spend.readingId === null) continue;
    // A closed account's credits were forfeited with it: its readings' refunds found nothing to
    // give back, whatever their sessions say.
    if (closedAccounts.has(spend.userId)) forfeited.add(spend.readingId);
    standing.set(spend.readingId, (standing.get(spend.readingId) ?? 0) + spend.amount);
  }
  for (const readingId of new Set([...standing.keys(), ...voices.keys()])) {
    const voice = voices.get(readingId) ?? initialVoice();
    if (forfeited.has(readingId)) continue;
    if (voice.current?.phase === 'requested' || voice.refundsOwed.length > 0) continue;
    const charged = standing.get(readingId) ?? 0;
    if (charged !== voice.creditsCharged) {
      differences.push(
        `voice ${readingId}: the reading's sessions charged ${voice.creditsCharged} credits, its voice_reactivation spends stand at ${charged}`,
      );
    }
  }
  return { count, credits };
}

/** The projections whose checkpoint has not reached `head` within `graceMs`. */
async function projectionsBehind(db: Kysely<unknown>, head: bigint, graceMs: number) {
  const names = allProjections.map((p) => p.name);
  const until = Date.now() + graceMs;
  for (;;) {
    const rows = await readModels(db)
      .selectFrom('checkpoints')
      .selectAll()
      .where('name', 'in', names)
      .execute();
    const behind = names.flatMap((name) => {
      const position = BigInt(rows.find((r) => r.name === name)?.position ?? 0);
      return position < head ? [{ name, position, head }] : [];
    });
    if (behind.length === 0 || Date.now() >= until) return behind;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
