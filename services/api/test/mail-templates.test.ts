import { describe, expect, it } from 'vitest';
import type { MailContent, MailContext } from '../src/modules/mail/content.ts';
import { sampleMailContents } from '../src/modules/mail/previews.ts';
import { renderMail } from '../src/modules/mail/render.tsx';

const context: MailContext = {
  recipientName: '<script>alert(1)</script>',
  appUrl: 'https://astra.example',
  site: {
    operator: {
      name: 'Astra Readings GmbH',
      address: ['Sternstraße 7', '10115 Berlin', 'Germany'],
      email: 'hello@astra.example',
      representative: 'Ada Lovelace',
      register: 'HRB 12345 B, Amtsgericht Charlottenburg',
      vatId: 'DE123456789',
    },
    supportEmail: 'support@astra.example',
  },
};

describe('the e-mail templates', () => {
  it('render every kind as HTML and text, each with the operator’s details and no raw markup from a name', async () => {
    expect(new Set(sampleMailContents.map((c) => c.kind)).size).toBe(7);
    for (const content of sampleMailContents) {
      const mail = await renderMail(content, context);
      expect(mail.subject.length, content.kind).toBeGreaterThan(0);
      expect(mail.html.startsWith('<!DOCTYPE html'), content.kind).toBe(true);
      for (const body of [mail.html, mail.text]) {
        for (const fact of [
          'Astra Readings GmbH',
          'Sternstraße 7',
          '10115 Berlin',
          'support@astra.example',
          'VAT ID DE123456789',
          'HRB 12345 B',
          'Represented by Ada Lovelace',
          'not marketing',
        ])
          expect(body, `${content.kind}: ${fact}`).toContain(fact);
      }
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('&lt;script&gt;');
    }
  });

  it('says the facts of each message: credits, the amount in its own currency, dates, references', async () => {
    const text = async (content: MailContent) => (await renderMail(content, context)).text;
    const receipt = await text({
      kind: 'purchase_receipt',
      packName: 'Explorer credit pack',
      credits: 50,
      amount: { amountMinor: 500, currency: 'jpy' },
      paidAt: '2026-11-28T10:15:00.000Z',
      orderReference: 'cs_test_ref',
    });
    expect(receipt).toContain('50 credits');
    expect(receipt).toContain('¥500');
    expect(receipt).toContain('November 28, 2026');
    expect(receipt).toContain('cs_test_ref');
    const refund = await text({
      kind: 'refund_issued',
      amount: { amountMinor: 799, currency: 'usd' },
      creditsTakenBack: 20,
      shortfall: 0,
      refundedOn: '2026-11-30T09:00:00.000Z',
      orderReference: 'pi_ref',
    });
    expect(refund).toContain('$7.99');
    expect(refund).toContain('20 credits');
    expect(refund).not.toContain('already been spent');
    const failed = (nextAttemptAt: string | null) =>
      text({
        kind: 'payment_failed',
        planName: 'Seeker',
        amount: { amountMinor: 999, currency: 'eur' },
        nextAttemptAt,
        invoiceReference: 'in_ref',
      });
    expect(await failed('2026-12-04T10:00:00.000Z')).toContain('try again on December 4, 2026');
    expect(await failed(null)).toContain('no further attempts');
    const withoutVat = await renderMail(sampleMailContents[0]!, {
      ...context,
      recipientName: null,
      site: { ...context.site, operator: { ...context.site.operator, vatId: null } },
    });
    expect(withoutVat.text).not.toContain('VAT ID');
    expect(withoutVat.text).toContain('Hello,');
  });
});
