import { formatLongDate, formatMoney } from '@astra/contracts';
import { Link, Text } from '@react-email/components';
import type { MailContent, MailContext, Money } from '../content.ts';
import { Fact, Layout } from './Layout.tsx';

type Props<K extends MailContent['kind']> = {
  content: Extract<MailContent, { kind: K }>;
  context: MailContext;
};

const money = (amount: Money) => formatMoney(amount.amountMinor, amount.currency);
/** A day or an instant as people read it: "November 28, 2026" (UTC). */
export const day = (value: string) => formatLongDate(value.slice(0, 10));
const credits = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'credit' : 'credits'}`;

export function PurchaseReceipt({ content, context }: Props<'purchase_receipt'>) {
  return (
    <Layout context={context} preview={`${credits(content.credits)} added`} title="Your receipt">
      <Text>Thank you for your purchase. Your credits are in your balance now.</Text>
      <Fact label="Credit pack">{content.packName}</Fact>
      <Fact label="Credits added">{credits(content.credits)}</Fact>
      {content.amount ? <Fact label="Amount paid">{money(content.amount)}</Fact> : null}
      <Fact label="Date">{day(content.paidAt)}</Fact>
      <Fact label="Order reference">{content.orderReference}</Fact>
      <Text>
        Your <Link href={`${context.appUrl}/credits`}>credit history</Link> lists every credit you
        received and spent.
      </Text>
    </Layout>
  );
}

export function SubscriptionReceipt({ content, context }: Props<'subscription_receipt'>) {
  return (
    <Layout
      context={context}
      preview={`${content.planName} subscription started`}
      title="Your subscription has started"
    >
      <Text>Thank you for subscribing. Your first month's credits are in your balance now.</Text>
      <Fact label="Plan">{content.planName}</Fact>
      <Fact label="Credits every month">{credits(content.creditsPerMonth)}</Fact>
      {content.amount ? <Fact label="Amount paid">{money(content.amount)}</Fact> : null}
      <Fact label="Date">{day(content.paidAt)}</Fact>
      <Fact label="Order reference">{content.orderReference}</Fact>
      <Fact label="Next renewal">{day(content.nextRenewalDate)}</Fact>
      <Text>
        You can cancel at any time on your{' '}
        <Link href={`${context.appUrl}/subscription`}>subscription page</Link>; the month you paid
        for stays yours.
      </Text>
    </Layout>
  );
}

export function SubscriptionRenewed({ content, context }: Props<'subscription_renewed'>) {
  return (
    <Layout
      context={context}
      preview={`${credits(content.credits)} added`}
      title="Your subscription renewed"
    >
      <Text>A new month of your {content.planName} subscription has begun.</Text>
      <Fact label="Credits added">{credits(content.credits)}</Fact>
      <Fact label="Carried over from last month">{credits(content.rolledOver)}</Fact>
      {content.forfeited > 0 ? (
        <Text>
          {credits(content.forfeited)} from earlier months were not carried over: subscription
          credits above one month's do not roll over.
        </Text>
      ) : null}
      {content.amount ? <Fact label="Amount paid">{money(content.amount)}</Fact> : null}
      <Fact label="Date">{day(content.renewedOn)}</Fact>
      {content.orderReference ? <Fact label="Invoice">{content.orderReference}</Fact> : null}
      <Fact label="Next renewal">{day(content.nextRenewalDate)}</Fact>
    </Layout>
  );
}

export function PaymentFailed({ content, context }: Props<'payment_failed'>) {
  return (
    <Layout
      context={context}
      preview="Your subscription payment did not go through"
      title="Your payment did not go through"
    >
      <Text>
        We could not take the payment for your
        {content.planName ? ` ${content.planName}` : ''} subscription
        {content.amount ? ` (${money(content.amount)})` : ''}.
      </Text>
      {content.nextAttemptAt ? (
        <Text>
          We will try again on {day(content.nextAttemptAt)}. Please check that your card is valid
          and has funds; your credits stay usable meanwhile.
        </Text>
      ) : (
        <Text>
          There will be no further attempts: your subscription ends, and no new monthly credits
          come. The credits you have stay usable. You can subscribe again on the{' '}
          <Link href={`${context.appUrl}/pricing`}>pricing page</Link>.
        </Text>
      )}
      <Fact label="Invoice">{content.invoiceReference}</Fact>
    </Layout>
  );
}

export function SubscriptionCancelled({ content, context }: Props<'subscription_cancelled'>) {
  return (
    <Layout
      context={context}
      preview="Your subscription is cancelled"
      title="Your subscription is cancelled"
    >
      <Text>
        Your {content.planName ? `${content.planName} ` : ''}subscription is cancelled. It runs
        until {day(content.accessUntil)}; nothing more is charged, and no new monthly credits come
        after that.
      </Text>
      <Text>
        The credits you have stay usable. You can subscribe again at any time on the{' '}
        <Link href={`${context.appUrl}/pricing`}>pricing page</Link>.
      </Text>
    </Layout>
  );
}

export function RefundIssued({ content, context }: Props<'refund_issued'>) {
  return (
    <Layout context={context} preview={`${money(content.amount)} refunded`} title="Your refund">
      <Text>We have refunded {money(content.amount)} to your payment method.</Text>
      <Fact label="Amount refunded">{money(content.amount)}</Fact>
      <Fact label="Credits taken back">{credits(content.creditsTakenBack)}</Fact>
      {content.shortfall > 0 ? (
        <Text>
          {credits(content.shortfall)} of the purchase had already been spent and could not be taken
          back.
        </Text>
      ) : null}
      <Fact label="Date">{day(content.refundedOn)}</Fact>
      <Fact label="Order reference">{content.orderReference}</Fact>
      <Text>Banks usually show a refund within 5 to 10 days.</Text>
    </Layout>
  );
}

export function AccountDeleted({ content, context }: Props<'account_deleted'>) {
  return (
    <Layout
      context={context}
      preview="Your Astra account is deleted"
      title="Your account is deleted"
    >
      <Text>
        {content.byAdmin
          ? `An administrator deleted your Astra account on ${day(content.deletedOn)}. If you think this is a mistake, write to support.`
          : `As you asked, your Astra account was deleted on ${day(content.deletedOn)}.`}
      </Text>
      <Text>
        Your remaining credits were forfeited and any subscription ended. Your personal data (your
        profile, birth details and readings) is erased; records of credit use and payments stay,
        without anything personal, as the law requires. This is the last message we send you.
      </Text>
      <Text>
        You can sign up again with this address at any time; a new account does not receive the free
        credits again.
      </Text>
    </Layout>
  );
}
