import type {
  CancelSubscriptionRequest,
  ChangePlanRequest,
  SubscriptionAction,
  SubscriptionStatus,
} from '@astra/contracts';
import { api, MONEY_TAGS } from '../../app/api';

export const subscriptionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The spec's derived subscription view, re-checked every 10 minutes for subscribers. */
    getSubscription: build.query<SubscriptionStatus, void>({
      query: () => '/subscription',
      providesTags: ['Subscription'],
    }),
    /** The month's credits when the renewal date has come (409 refresh_not_due before). */
    refreshMonthlyCredits: build.mutation<SubscriptionAction, void>({
      query: () => ({ url: '/subscription/refresh', method: 'POST' }),
      invalidatesTags: [...MONEY_TAGS],
    }),
    /** Another plan from the next renewal date: nothing is charged now. */
    changePlan: build.mutation<SubscriptionAction, ChangePlanRequest>({
      query: (body) => ({ url: '/subscription/change', method: 'POST', body }),
      invalidatesTags: [...MONEY_TAGS],
    }),
    /**
     * Access continues until the renewal date; nothing renews after it. The answer's message is
     * the toast's text.
     */
    cancelSubscription: build.mutation<SubscriptionAction, CancelSubscriptionRequest>({
      query: (body) => ({ url: '/subscription/cancel', method: 'POST', body }),
      invalidatesTags: [...MONEY_TAGS],
    }),
  }),
});

export const {
  useGetSubscriptionQuery,
  useRefreshMonthlyCreditsMutation,
  useCancelSubscriptionMutation,
  useChangePlanMutation,
} = subscriptionApi;
