import type { MailKind, SiteInfo } from '@astra/contracts';

/** Money as it was paid: Stripe's minor units and currency (`usd`, `eur`, …). */
export interface Money {
  amountMinor: number;
  currency: string;
}

/**
 * What a message says, by kind: the facts the reactor read off the events (never recomputed),
 * rendered by its template. Dates are ISO days (`2026-11-28`) or instants.
 */
export type MailContent =
  | {
      kind: 'purchase_receipt';
      packName: string;
      credits: number;
      /** Absent when nothing was paid for it (a local checkout without an amount). */
      amount: Money | null;
      paidAt: string;
      orderReference: string;
    }
  | {
      kind: 'subscription_receipt';
      planName: string;
      creditsPerMonth: number;
      amount: Money | null;
      paidAt: string;
      orderReference: string;
      nextRenewalDate: string;
    }
  | {
      kind: 'subscription_renewed';
      planName: string;
      /** The month's credits added. */
      credits: number;
      /** Subscription credits carried over from last month (at most one month's). */
      rolledOver: number;
      /** Subscription credits above one month's, lost at this renewal. */
      forfeited: number;
      amount: Money | null;
      renewedOn: string;
      nextRenewalDate: string;
      orderReference: string | null;
    }
  | {
      kind: 'payment_failed';
      planName: string | null;
      amount: Money | null;
      /** When Stripe tries again (null: it will not; the subscription ends). */
      nextAttemptAt: string | null;
      invoiceReference: string;
    }
  | { kind: 'subscription_cancelled'; planName: string | null; accessUntil: string }
  | {
      kind: 'refund_issued';
      amount: Money;
      /** Credits taken back from the purchase, and what could not be (already spent). */
      creditsTakenBack: number;
      shortfall: number;
      refundedOn: string;
      orderReference: string;
    }
  | { kind: 'account_deleted'; deletedOn: string; byAdmin: boolean };

/** Who a message is for and who sends it: what every template needs beside its content. */
export interface MailContext {
  /** The recipient's name as on their profile (null: greet without it). */
  recipientName: string | null;
  /** The operator's details (`OPERATOR_*`, `SUPPORT_EMAIL`), which EU commercial mail carries. */
  site: Pick<SiteInfo, 'operator' | 'supportEmail'>;
  /** The app's base URL, for links (`PUBLIC_URL`). */
  appUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export type { MailKind };
