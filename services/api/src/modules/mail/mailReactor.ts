import type { Decoded, SiteInfo } from '@astra/contracts';
import { streamId, streams } from '@astra/ledger';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Effect } from '../../reactors/outbox.ts';
import type { Reactor } from '../../reactors/reactor.ts';
import type { MailContent } from './content.ts';
import { renderMail } from './renderLazily.ts';
import type { MailTransport, StoredMail } from './transport.ts';

export const MAIL_REACTOR = 'mail';

export interface MailSettings {
  /** `MAIL_FROM`. */
  from: string;
  site: Pick<SiteInfo, 'operator' | 'supportEmail'>;
  /** `PUBLIC_URL`, for links. */
  appUrl: string;
}

/**
 * The product's e-mails as reactions to the ledger's events (docs/operations.md, "E-mail"): a
 * receipt for a pack and for a subscription's first month, a renewal, a failed payment, a
 * cancellation, a refund. Each is rendered when its event is reacted to, to the address on the
 * user's own stream then, and kept so: every attempt sends the same message with the same
 * `Message-ID`. A user who is deleted (or erased) by then gets nothing. The account-deleted
 * message is no reaction: it is recorded by the deletion itself, before the erasure
 * (`accountDeletedEffect`).
 */
export function mailReactor(
  ledger: Ledger,
  transport: MailTransport,
  settings: MailSettings,
): Reactor {
  return {
    name: MAIL_REACTOR,
    streamPrefixes: [streams.credits(''), streams.stripe('')],
    async react(event) {
      const about = await contentOf(ledger, event);
      if (!about) return [];
      const effect = await mailEffect(ledger, settings, about.userId, event.id, about.content, {
        eventAt: event.recordedAt,
      });
      return effect ? [effect] : [];
    },
    async perform(row) {
      if (!row.recipient || !row.payload) throw new Error('The message was erased');
      return transport.send(row.recipient, row.payload as StoredMail);
    },
  };
}

/**
 * The account-deleted message, to the address on record: recorded by the deletion before the
 * erasure (which then leaves it until it is sent, and erases it after). Null when the address is
 * gone already (an erasure finished before).
 */
export const accountDeletedEffect = (
  ledger: Ledger,
  settings: MailSettings,
  userId: string,
  byAdmin: boolean,
  now: Date,
) =>
  mailEffect(
    ledger,
    settings,
    userId,
    `account_deleted:${userId}`,
    { kind: 'account_deleted', deletedOn: now.toISOString().slice(0, 10), byAdmin },
    { eventAt: now, eraseAfterSend: true, evenIfDeleted: true },
  );

async function mailEffect(
  ledger: Ledger,
  settings: MailSettings,
  userId: string,
  key: string,
  content: MailContent,
  options: { eventAt: Date; eraseAfterSend?: boolean; evenIfDeleted?: boolean },
): Promise<Effect | null> {
  const { state: user } = await ledger.load('user', userId);
  if (!user.email || user.erased) return null;
  if (user.status === 'deleted' && !options.evenIfDeleted) return null;
  const rendered = await renderMail(content, {
    recipientName: user.firstName ?? user.fullName ?? null,
    site: settings.site,
    appUrl: settings.appUrl,
  });
  const mail: StoredMail = {
    from: settings.from,
    ...rendered,
    messageId: messageIdOf(key, settings.from),
  };
  return {
    key,
    kind: content.kind,
    userId,
    recipient: user.email,
    payload: mail,
    eventAt: options.eventAt,
    eraseAfterSend: options.eraseAfterSend ?? false,
  };
}

/** `<key@sender's domain>`: stable for the message, whoever sends it and however often. */
const messageIdOf = (key: string, from: string) => {
  const domain = from.match(/@([^>\s]+)/)?.[1] ?? 'astra.invalid';
  return `<${key.replace(/[^A-Za-z0-9._-]/g, '.')}@${domain}>`;
};

/** Which message an event calls for, and whose it is (null: none). */
async function contentOf(
  ledger: Ledger,
  event: Decoded,
): Promise<{ userId: string; content: MailContent } | null> {
  const at = event.recordedAt.toISOString();
  if (event.type === 'StripeEventProcessed') {
    const failure = event.data.paymentFailure;
    if (!failure || !event.data.userId) return null;
    const { state } = await ledger.load('credits', event.data.userId);
    return {
      userId: event.data.userId,
      content: {
        kind: 'payment_failed',
        planName: state.subscription?.tierName ?? null,
        amount: { amountMinor: failure.amountMinor, currency: failure.currency },
        nextAttemptAt: failure.nextAttemptAt,
        invoiceReference: failure.invoiceId,
      },
    };
  }
  const userId = streamId(event.stream, 'credits');
  if (!userId) return null;
  switch (event.type) {
    case 'CreditsGranted': {
      const { data } = event;
      if (data.kind !== 'purchase') return null;
      return {
        userId,
        content: {
          kind: 'purchase_receipt',
          packName: data.reason,
          credits: data.amount,
          amount: data.payment ?? null,
          paidAt: at,
          orderReference: data.reference?.checkoutSessionId ?? data.grantId,
        },
      };
    }
    case 'MonthlyCreditsGranted': {
      const { data } = event;
      const history = await creditHistory(ledger, event.stream, event.revision);
      const orderReference = data.reference?.invoiceId ?? null;
      if (history.firstMonth) {
        return {
          userId,
          content: {
            kind: 'subscription_receipt',
            planName: data.tierName,
            creditsPerMonth: data.amount,
            amount: data.payment ?? null,
            paidAt: at,
            orderReference: orderReference ?? `${data.tierName} ${data.period}`,
            nextRenewalDate: data.nextRenewalDate,
          },
        };
      }
      return {
        userId,
        content: {
          kind: 'subscription_renewed',
          planName: data.tierName,
          credits: data.amount,
          rolledOver: data.rolledOver,
          forfeited: history.forfeited,
          amount: data.payment ?? null,
          renewedOn: data.grantedOn,
          nextRenewalDate: data.nextRenewalDate,
          orderReference,
        },
      };
    }
    case 'SubscriptionCancelled': {
      const { state } = await ledger.load('credits', userId);
      return {
        userId,
        content: {
          kind: 'subscription_cancelled',
          planName: state.subscription?.tierName ?? null,
          accessUntil: event.data.accessUntil,
        },
      };
    }
    case 'PaymentRefunded': {
      const { data } = event;
      const reversal = await reversalAfter(ledger, event.stream, event.revision, data.chargeId);
      return {
        userId,
        content: {
          kind: 'refund_issued',
          amount: { amountMinor: data.amountMinor, currency: data.currency },
          creditsTakenBack: reversal?.amount ?? 0,
          shortfall: reversal?.shortfall ?? 0,
          refundedOn: at,
          orderReference: data.invoiceId ?? data.paymentIntentId,
        },
      };
    }
    default:
      return null;
  }
}

/**
 * A month's grant in its stream: the first since its subscription was activated (a receipt for
 * the first payment), and the credits its renewal forfeited (`RolloverForfeited`, just before).
 */
async function creditHistory(ledger: Ledger, stream: string, revision: bigint) {
  let firstMonth = true;
  let forfeited = 0;
  let subscription: string | null = null;
  for await (const recorded of ledger.store.readStream(stream)) {
    if (recorded.revision >= revision) break;
    // A resumed subscription is activated again, and is no new one.
    const activated = recorded.data as { subscriptionId?: string | null };
    if (recorded.type === 'SubscriptionActivated' && activated.subscriptionId !== subscription) {
      subscription = activated.subscriptionId ?? null;
      firstMonth = true;
    }
    if (recorded.type === 'MonthlyCreditsGranted') firstMonth = false;
    forfeited =
      recorded.type === 'RolloverForfeited' && recorded.revision === revision - 1n
        ? (recorded.data as { amount: number }).amount
        : forfeited;
  }
  return { firstMonth, forfeited };
}

/** The reversal of credits that came with a refund (appended with it, right after). */
async function reversalAfter(ledger: Ledger, stream: string, revision: bigint, chargeId: string) {
  for await (const recorded of ledger.store.readStream(stream, { from: revision + 1n })) {
    const data = recorded.data as {
      amount: number;
      shortfall: number;
      reference?: { chargeId?: string };
    };
    return recorded.type === 'PurchaseReversed' && data.reference?.chargeId === chargeId
      ? data
      : null;
  }
  return null;
}
