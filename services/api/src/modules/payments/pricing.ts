import type { BillingType, PricingResponse } from '@astra/contracts';
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

/** Puts the configured amounts, currency and Stripe price ids into the catalogue (at start). */
export async function applyPricingConfig(read: ReadDb, config: Config) {
  const rows = await read.selectFrom('pricing_rows').select(['tier_id', 'billing_type']).execute();
  for (const row of rows) {
    const id = key(row.tier_id, row.billing_type);
    const amount = config.PRICING_AMOUNTS.get(id);
    await read
      .updateTable('pricing_rows')
      .set({
        currency: config.PRICING_CURRENCY,
        provider_price_id: config.STRIPE_PRICE_IDS.get(id) ?? null,
        ...(amount ? { price_minor: amount } : {}),
      })
      .where('tier_id', '=', row.tier_id)
      .where('billing_type', '=', row.billing_type)
      .execute();
  }
}

export async function offerOf(
  read: ReadDb,
  tierId: number,
  billingType: BillingType,
): Promise<TierOffer | undefined> {
  const row = await read
    .selectFrom('pricing_rows')
    .innerJoin('pricing_tiers', 'pricing_tiers.tier_id', 'pricing_rows.tier_id')
    .select([
      'pricing_tiers.tier_id',
      'pricing_tiers.tier_name',
      'pricing_tiers.credits_per_month',
      'pricing_rows.billing_type',
      'pricing_rows.price_minor',
      'pricing_rows.currency',
      'pricing_rows.credits_included',
      'pricing_rows.provider_price_id',
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
      priceMinor: row.price_minor,
      currency: row.currency,
      creditsIncluded: row.credits_included,
      providerPriceId: row.provider_price_id,
    }
  );
}

/** A subscription tier as the ledger's monthly grants need it: its month of credits. */
export const subscriptionTier = async (
  read: ReadDb,
  tierId: number | null,
): Promise<Tier | undefined> => {
  if (tierId === null) return undefined;
  const offer = await offerOf(read, tierId, 'subscription');
  return (
    offer && {
      tierId: offer.tierId,
      tierName: offer.tierName,
      creditsPerMonth: offer.creditsIncluded,
    }
  );
};

export const formatPrice = (minor: number) => (minor / 100).toFixed(2);

export async function pricingOf(read: ReadDb): Promise<PricingResponse> {
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
    tiers: tiers.map((tier) => ({
      id: tier.tier_id,
      name: tier.tier_name,
      description: tier.description,
      popular: tier.popular,
      features: tier.features.slice(0, 5),
      creditsPerMonth: tier.credits_per_month,
      rows: rows
        .filter((row) => row.tier_id === tier.tier_id)
        .map((row) => ({
          billingType: row.billing_type,
          priceMinor: row.price_minor,
          currency: row.currency,
          price: formatPrice(row.price_minor),
          creditsIncluded: row.credits_included,
        })),
    })),
  };
}
