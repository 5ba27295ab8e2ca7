import {
  type BillingType,
  MAX_INT4,
  type PricingResponse,
  type VoicePricing,
} from '@astra/contracts';
import type { Tier } from '@astra/ledger';
import type { ReadDb } from '@astra/projections';
import type { Config } from '../../config.ts';

/** One purchasable row of a tier, from our own catalogue (never from a payment event). */
export interface TierOffer {
  tierId: number;
  tierName: string;
  creditsPerMonth: number;
  billingType: BillingType;
  priceMinor: number;
  currency: string;
  creditsIncluded: number;
  providerPriceId: string | null;
}

const key = (tierId: number, billingType: BillingType) => `${tierId}:${billingType}`;

/** What configuration says about prices: amounts and currency, and Stripe's price ids. */
export interface PricingSettings {
  amounts: ReadonlyMap<string, number>;
  currency: string;
  providerPriceIds: ReadonlyMap<string, string>;
}

export const pricingSettingsOf = (config: Config): PricingSettings => ({
  amounts: config.PRICING_AMOUNTS,
  currency: config.PRICING_CURRENCY,
  providerPriceIds: config.STRIPE_PRICE_IDS,
});

/** A catalogue row as sold: the seeded amount unless configuration sets one. */
const sold = (
  settings: PricingSettings,
  row: { tier_id: number; billing_type: BillingType; price_minor: number },
) => {
  const id = key(row.tier_id, row.billing_type);
  return {
    priceMinor: settings.amounts.get(id) ?? row.price_minor,
    currency: settings.currency,
    providerPriceId: settings.providerPriceIds.get(id) ?? null,
  };
};

export async function offerOf(
  read: ReadDb,
  settings: PricingSettings,
  tierId: number,
  billingType: BillingType,
): Promise<TierOffer | undefined> {
  // A tier id from outside (Stripe metadata) may be anything: only a tier's id can name one.
  if (!Number.isSafeInteger(tierId) || tierId < 1 || tierId > MAX_INT4) return undefined;
  const row = await read
    .selectFrom('pricing_rows')
    .innerJoin('pricing_tiers', 'pricing_tiers.tier_id', 'pricing_rows.tier_id')
    .select([
      'pricing_tiers.tier_id',
      'pricing_tiers.tier_name',
      'pricing_tiers.credits_per_month',
      'pricing_rows.billing_type',
      'pricing_rows.price_minor',
      'pricing_rows.credits_included',
    ])
    .where('pricing_rows.tier_id', '=', tierId)
    .where('pricing_rows.billing_type', '=', billingType)
    .executeTakeFirst();
  return (
    row && {
      tierId: row.tier_id,
      tierName: row.tier_name,
      creditsPerMonth: row.credits_per_month,
      billingType: row.billing_type,
      creditsIncluded: row.credits_included,
      ...sold(settings, {
        tier_id: row.tier_id,
        billing_type: row.billing_type,
        price_minor: row.price_minor,
      }),
    }
  );
}

/** A subscription tier as the ledger's monthly grants need it: its month of credits. */
export async function subscriptionTier(
  read: ReadDb,
  tierId: number | null,
): Promise<Tier | undefined> {
  if (tierId === null || !Number.isSafeInteger(tierId) || tierId < 1 || tierId > MAX_INT4)
    return undefined;
  const row = await read
    .selectFrom('pricing_rows')
    .innerJoin('pricing_tiers', 'pricing_tiers.tier_id', 'pricing_rows.tier_id')
    .select(['pricing_tiers.tier_id', 'pricing_tiers.tier_name', 'pricing_rows.credits_included'])
    .where('pricing_rows.tier_id', '=', tierId)
    .where('pricing_rows.billing_type', '=', 'subscription')
    .executeTakeFirst();
  return (
    row && { tierId: row.tier_id, tierName: row.tier_name, creditsPerMonth: row.credits_included }
  );
}

/** A price in minor units as the currency writes it: '9.99', or '1200' for yen. */
export const formatPrice = (minor: number, currency: string) => {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
};

/**
 * What each tier gives besides its credits, true of both ways to buy it (the read model's tier
 * lines also promise monthly things, so they are not shown as they are).
 */
const tierHighlights: Record<number, string[]> = {
  1: ['All five reading types', 'Voice guide on every reading'],
  2: ['All five reading types', 'Compatibility readings for your circle'],
  3: ['All five reading types', 'Celtic Cross whenever you need depth'],
  4: ['All five reading types', 'Long voice conversations with reactivations'],
};

/**
 * The lines of a row, true of its billing type: a pack's credits never expire and nothing
 * renews; a subscription's come every month, and up to one month of them rolls over.
 */
export const featuresOf = (tierId: number, billingType: BillingType, credits: number) => {
  const highlights = tierHighlights[tierId] ?? ['All five reading types'];
  return billingType === 'subscription'
    ? [
        `${credits} credits every month`,
        'Up to one month of unused subscription credits rolls over',
        ...highlights,
        'Cancel anytime; access continues to the end of the paid month',
      ]
    : [
        `${credits} credits that never expire`,
        'One payment; nothing renews',
        ...highlights,
        'Personal reading library',
      ];
};

export async function pricingOf(
  read: ReadDb,
  settings: PricingSettings,
  voice: VoicePricing,
): Promise<PricingResponse> {
  const [tiers, rows] = await Promise.all([
    read.selectFrom('pricing_tiers').selectAll().orderBy('display_order').execute(),
    read
      .selectFrom('pricing_rows')
      .selectAll()
      .orderBy('tier_id')
      .orderBy('billing_type', 'desc')
      .execute(),
  ]);
  return {
    currency: settings.currency,
    voice,
    tiers: tiers.map((tier) => ({
      id: tier.tier_id,
      name: tier.tier_name,
      description: tier.description,
      popular: tier.popular,
      creditsPerMonth: tier.credits_per_month,
      rows: rows
        .filter((row) => row.tier_id === tier.tier_id)
        .map((row) => {
          const { priceMinor, currency } = sold(settings, row);
          return {
            billingType: row.billing_type,
            priceMinor,
            currency,
            price: formatPrice(priceMinor, currency),
            creditsIncluded: row.credits_included,
            features: featuresOf(row.tier_id, row.billing_type, row.credits_included),
          };
        }),
    })),
  };
}
