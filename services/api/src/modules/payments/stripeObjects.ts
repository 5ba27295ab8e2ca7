import { MAX_INT4, type PaymentTax, uuidIdSchema } from '@astra/contracts';
import { monthOf } from '@astra/ledger';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { InvoicePayment } from './gateway.ts';

/** What the webhook reads of Stripe's objects: their checked fields, and what they name. */

export const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const isoMonth = (unixSeconds: number) => monthOf(new Date(unixSeconds * 1000).toISOString());

/*
 * The fields each handled event's object is read for, checked before any of them reaches the
 * ledger, SQL or an outcome text. The object's id names what the event is about: without a valid
 * one the event is refused (400, nothing recorded). Any other field that is not what Stripe
 * sends (a NUL, a negative or unsafe amount, a timestamp past the year 9999, a user id that is
 * no UUID, a tier id past PostgreSQL's integer) is recorded as `refused: invalid <field>`: no
 * credit moves, and a redelivery is a duplicate.
 */
const stripeObjectId = z.string().regex(/^[A-Za-z0-9_-]{1,255}$/, 'must be a Stripe id');
const reference = z.union([stripeObjectId, z.looseObject({ id: stripeObjectId })]).nullish();
const word = z
  .string()
  .regex(/^[a-z_]{1,64}$/)
  .nullish();
const metadata = z
  .looseObject({
    userId: uuidIdSchema.nullish(),
    tierId: z
      .string()
      .regex(/^\d{1,10}$/)
      .refine((tierId) => Number(tierId) >= 1 && Number(tierId) <= MAX_INT4)
      .nullish(),
    billingType: word,
  })
  .nullish();
/** Minor units: Stripe's largest charge (99,999,999) is far below; the refunds' columns are `integer`. */
const minor = z.number().int().min(0).max(MAX_INT4);
/** An ISO currency code as Stripe writes it (lower case). */
const currency = z.string().regex(/^[a-z]{3}$/);
/** A country as Stripe writes it (ISO 3166-1 alpha-2). */
const country = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .nullish();
/** A tax rate's percentage (Stripe's `rate.percentage`, `tax_rate.percentage`). */
const percentage = z.number().min(0).max(100).nullish();
/** A tax rate object, when Stripe expanded it (else its id). */
const taxRate = z.union([z.string(), z.looseObject({ percentage })]).nullish();
const addressCountry = z.looseObject({ country }).nullish();
/** Unix seconds up to 9999-12-31 (a later date is no ISO date). */
const unixSeconds = z.number().min(0).max(253_402_300_799).nullish();
const sessionShape = z.looseObject({
  id: stripeObjectId,
  mode: word,
  payment_status: word,
  client_reference_id: uuidIdSchema.nullish(),
  metadata,
  payment_intent: reference,
  customer: reference,
  amount_total: minor.nullish(),
  currency: currency.nullish(),
  total_details: z
    .looseObject({
      amount_tax: minor.nullish(),
      breakdown: z
        .looseObject({
          taxes: z.array(z.looseObject({ rate: taxRate })).nullish(),
        })
        .nullish(),
    })
    .nullish(),
  customer_details: z.looseObject({ address: addressCountry }).nullish(),
});
const subscriptionShape = z.looseObject({
  id: stripeObjectId,
  metadata,
  cancel_at_period_end: z.boolean().nullish(),
  status: word,
});
export const invoiceShape = z.looseObject({
  id: stripeObjectId,
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: reference, metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .looseObject({
      data: z
        .array(
          z.looseObject({
            period: z.looseObject({ start: unixSeconds, end: unixSeconds }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  period_start: unixSeconds,
  period_end: unixSeconds,
  amount_paid: minor.nullish(),
  currency: currency.nullish(),
  total_taxes: z
    .array(
      z.looseObject({
        amount: minor,
        tax_rate_details: z.looseObject({ tax_rate: taxRate }).nullish(),
      }),
    )
    .nullish(),
  customer_address: addressCountry,
  payments: z
    .looseObject({
      data: z
        .array(
          z.looseObject({
            status: word,
            payment: z.looseObject({ payment_intent: reference, charge: reference }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  payment_intent: reference,
  charge: reference,
  customer: reference,
});
const payoutShape = z.looseObject({
  id: stripeObjectId,
  amount: minor,
  currency,
  arrival_date: unixSeconds.unwrap(),
  status: word,
});
/** Signed minor units (a balance transaction's amount and net): a refund's are negative. */
const signedMinor = z.number().int().min(-MAX_INT4).max(MAX_INT4);
/** A balance transaction as Stripe's API lists it (its `source` expanded or an id). */
export const balanceTransactionShape = z.looseObject({
  id: stripeObjectId,
  type: word.unwrap().unwrap(),
  amount: signedMinor,
  fee: minor,
  net: signedMinor,
  currency,
  source: reference,
});
/** A charge (a refunded one's event, or Stripe's API's answer for a dispute's charge). */
export const chargeShape = z.looseObject({
  id: stripeObjectId,
  metadata,
  payment_intent: reference,
  amount: minor,
  currency,
});
/** A dispute (`charge.dispute.*`), with the balance transactions of its money. */
const disputeShape = z
  .looseObject({
    id: stripeObjectId,
    charge: reference.unwrap().unwrap(),
    payment_intent: reference,
    amount: minor.min(1),
    currency,
    status: word.unwrap().unwrap(),
    balance_transactions: z.array(balanceTransactionShape).nullish(),
  })
  // Its money is booked in one currency: Stripe's balance's (the transactions'), as payouts are.
  .refine(
    (dispute) => new Set((dispute.balance_transactions ?? []).map((t) => t.currency)).size <= 1,
    { path: ['balance_transactions'], message: 'are in more than one currency' },
  );
const paidSessionShape = sessionShape.refine(
  (session) => (session.total_details?.amount_tax ?? 0) <= (session.amount_total ?? 0),
  { path: ['total_details', 'amount_tax'], message: 'is more than the total' },
);
const paidInvoiceShape = invoiceShape.refine(
  (invoice) =>
    (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0) <=
    (invoice.amount_paid ?? 0),
  { path: ['total_taxes'], message: 'add up to more than the amount paid' },
);
const objectShapes: Record<string, z.ZodType> = {
  'checkout.session.completed': paidSessionShape,
  'checkout.session.async_payment_succeeded': paidSessionShape,
  'checkout.session.expired': sessionShape,
  'invoice.paid': paidInvoiceShape,
  'invoice.payment_failed': invoiceShape.and(
    z.looseObject({ amount_due: minor.nullish(), next_payment_attempt: unixSeconds }),
  ),
  'customer.subscription.updated': subscriptionShape,
  'customer.subscription.deleted': subscriptionShape,
  'payout.paid': payoutShape,
  'payout.failed': payoutShape,
  'charge.dispute.created': disputeShape,
  'charge.dispute.closed': disputeShape,
  'charge.refunded': chargeShape
    .extend({ amount_refunded: minor })
    .refine((charge) => charge.amount_refunded <= charge.amount, {
      path: ['amount_refunded'],
      message: 'is more than the amount',
    }),
};

/**
 * The first field of a handled event's object that is not what Stripe sends, as
 * `data.object.<field>`; null when every field the handler reads is sound (or the type is not
 * handled). An object without a valid id throws: 400, nothing recorded.
 */
export function invalidFieldOf(event: { type: string; data: { object: unknown } }): string | null {
  const parsed = objectShapes[event.type]?.safeParse(event.data.object);
  if (!parsed || parsed.success) return null;
  const issues = parsed.error.issues.map((issue) => ({
    ...issue,
    path: ['data', 'object', ...issue.path],
  }));
  const idIssue = issues.find((issue) => issue.path.length === 3 && issue.path[2] === 'id');
  if (idIssue) throw new z.ZodError([idIssue]);
  return issues[0]!.path.map(String).join('.');
}

/**
 * The payment of an invoice. Since API version 2025-03-31.basil it is in `payments` (an
 * includable list, not always in the event); older versions had `payment_intent` / `charge` on
 * the invoice itself. Whatever is missing the gateway looks up.
 */
export const invoicePaymentOf = (invoice: Stripe.Invoice): InvoicePayment => {
  const payments = invoice.payments?.data ?? [];
  const paid = payments.find((p) => p.status === 'paid') ?? payments[0];
  const legacy = invoice as unknown as {
    payment_intent?: string | { id: string } | null;
    charge?: string | { id: string } | null;
  };
  return {
    invoiceId: invoice.id,
    paymentIntentId: idOf(paid?.payment?.payment_intent) ?? idOf(legacy.payment_intent),
    chargeId: idOf(paid?.payment?.charge) ?? idOf(legacy.charge),
    amountPaid: typeof invoice.amount_paid === 'number' ? invoice.amount_paid : null,
  };
};

/**
 * The subscription month an invoice pays for: the subscription and its metadata (whose, which
 * tier), and the paid period, whose start names the month and whose end is the next renewal.
 * The grant and a refund of its payment read it alike, so that they name the same month.
 */
export const invoiceMonthOf = (invoice: Stripe.Invoice, now: Date) => {
  const details = invoice.parent?.subscription_details;
  const period = invoice.lines?.data?.[0]?.period;
  const periodStart = period?.start ?? invoice.period_start ?? Math.floor(now.getTime() / 1000);
  return {
    details,
    subscriptionId: idOf(details?.subscription),
    userId: details?.metadata?.userId ?? null,
    period: isoMonth(periodStart),
    periodStart,
    periodEnd: period?.end ?? invoice.period_end,
  };
};

/**
 * The Stripe ids of a paid invoice, for its month's `reference`: the payment only when the
 * invoice names it (the event's `payments` is not always included; nothing is fetched for it).
 */
export const invoiceReference = (invoice: Stripe.Invoice, subscriptionId: string) => {
  const { paymentIntentId, chargeId } = invoicePaymentOf(invoice);
  const customerId = idOf(invoice.customer);
  return {
    invoiceId: invoice.id,
    subscriptionId,
    ...(paymentIntentId ? { paymentIntentId } : {}),
    ...(chargeId ? { chargeId } : {}),
    ...(customerId ? { customerId } : {}),
  };
};

/** A tax rate's percentage, when Stripe expanded the rate (an id alone says none). */
const percentageOf = (rate: string | { percentage?: number | null } | null | undefined) =>
  typeof rate === 'object' && typeof rate?.percentage === 'number' ? rate.percentage : null;

/** A checkout session's tax: `total_details.amount_tax`, the customer's country, the rate. */
export const sessionTaxOf = (session: Stripe.Checkout.Session): PaymentTax | undefined => {
  const amountMinor = session.total_details?.amount_tax;
  if (typeof amountMinor !== 'number') return undefined;
  return {
    amountMinor,
    country: session.customer_details?.address?.country ?? null,
    ratePercent: percentageOf(session.total_details?.breakdown?.taxes?.[0]?.rate),
  };
};

/** An invoice's tax: its `total_taxes` added up, the customer's country, the (first) rate. */
export const invoiceTaxOf = (invoice: Stripe.Invoice): PaymentTax | undefined => {
  const taxes = invoice.total_taxes;
  if (!taxes) return undefined;
  return {
    amountMinor: taxes.reduce((sum, tax) => sum + tax.amount, 0),
    country: invoice.customer_address?.country ?? null,
    ratePercent: percentageOf(taxes[0]?.tax_rate_details?.tax_rate),
  };
};

/**
 * The money of a paid Stripe object as the ledger records it: Stripe's amount and currency
 * (a session's `amount_total`, an invoice's `amount_paid`), never our price table's, and the tax
 * in it when Stripe computed one.
 */
export const paymentOf = (
  amountMinor: number | null | undefined,
  code: string | null | undefined,
  tax: PaymentTax | undefined,
) =>
  typeof amountMinor === 'number' && code
    ? { payment: { amountMinor, currency: code, ...(tax ? { tax } : {}) } }
    : {};
