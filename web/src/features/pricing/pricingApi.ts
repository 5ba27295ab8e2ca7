import type { PricingResponse, PricingTier } from '@astra/contracts';
import { api } from '../../app/api';

export const pricingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The tiers in the spec's order (Starter, Explorer, Stargazer, Celestial Pro); public. */
    getPricing: build.query<PricingTier[], void>({
      query: () => '/pricing',
      transformResponse: (response: PricingResponse) => response.tiers,
    }),
  }),
});

export const { useGetPricingQuery } = pricingApi;
