import { render, toPlainText } from '@react-email/render';
import type { ReactElement } from 'react';
import type { MailContent, MailContext, RenderedMail } from './content.ts';
import {
  AccountDeleted,
  day,
  PaymentFailed,
  PurchaseReceipt,
  RefundIssued,
  SubscriptionCancelled,
  SubscriptionReceipt,
  SubscriptionRenewed,
} from './templates/messages.tsx';

const credits = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'credit' : 'credits'}`;

/** A message's subject and its template, by kind. */
function messageOf(
  content: MailContent,
  context: MailContext,
): { subject: string; element: ReactElement } {
  switch (content.kind) {
    case 'purchase_receipt':
      return {
        subject: `Your Astra receipt: ${credits(content.credits)}`,
        element: <PurchaseReceipt content={content} context={context} />,
      };
    case 'subscription_receipt':
      return {
        subject: `Your Astra receipt: ${content.planName} subscription`,
        element: <SubscriptionReceipt content={content} context={context} />,
      };
    case 'subscription_renewed':
      return {
        subject: `Your Astra subscription renewed: ${credits(content.credits)} added`,
        element: <SubscriptionRenewed content={content} context={context} />,
      };
    case 'payment_failed':
      return {
        subject: 'Your Astra subscription payment did not go through',
        element: <PaymentFailed content={content} context={context} />,
      };
    case 'subscription_cancelled':
      return {
        subject: `Your Astra subscription is cancelled (until ${day(content.accessUntil)})`,
        element: <SubscriptionCancelled content={content} context={context} />,
      };
    case 'refund_issued':
      return {
        subject: 'Your Astra refund',
        element: <RefundIssued content={content} context={context} />,
      };
    case 'account_deleted':
      return {
        subject: 'Your Astra account is deleted',
        element: <AccountDeleted content={content} context={context} />,
      };
  }
}

/** A message as it is sent: its subject, its HTML and its plain text, from one template. */
export async function renderMail(
  content: MailContent,
  context: MailContext,
): Promise<RenderedMail> {
  const { subject, element } = messageOf(content, context);
  // Rendered once: the plain text is the HTML's (what `render`'s own plainText option does).
  const html = await render(element);
  const text = toPlainText(html);
  return { subject, html, text };
}
