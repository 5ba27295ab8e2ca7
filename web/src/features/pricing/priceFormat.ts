import type { BillingType } from '@astra/contracts';

/** The price with the currency's own symbol (Intl picks it) and always two decimals. */
export function formatPrice(price: string, currency: string): string {
  const amount = Number(price);
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

export const creditsText = (credits: number) =>
  `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;

/** '100 credits every month' or '100 credits, once'. */
export const creditsLine = (credits: number, billingType: BillingType) =>
  billingType === 'subscription'
    ? `${creditsText(credits)} every month`
    : `${creditsText(credits)}, once`;

export const billingTypeLabel = (billingType: BillingType) =>
  billingType === 'subscription' ? 'Monthly subscription' : 'One-time credit pack';

/** The currency's code in capitals and, where the browser knows it, its English name in brackets. */
export function currencyLabel(currency: string): string {
  const code = currency.toUpperCase();
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'currency' }).of(code);
    return name && name !== code ? `${code} (${name})` : code;
  } catch {
    return code;
  }
}
