import type { PricingResponse } from '@astra/contracts';
import { api } from '../../app/api';

export const pricingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The tiers in the spec's order (Starter, Explorer, Stargazer, Celestial Pro) and the one
     * currency every price and refund rule is written in; public.
     */
    getPricing: build.query<PricingResponse, void>({
      query: () => '/pricing',
    }),
  }),
});

export const { useGetPricingQuery } = pricingApi;

/** The configured currency ('usd'), or null until GET /api/pricing has answered. */
export function useConfiguredCurrency(): string | null {
  const { data } = useGetPricingQuery();
  return data?.currency ?? null;
}
