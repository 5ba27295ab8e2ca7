import type {
  CheckoutRequest,
  CheckoutResponse,
  CheckoutStatus,
  LocalCheckoutPay,
  LocalCheckoutResult,
  LocalCheckoutSession,
} from '@astra/contracts';
import { api, MONEY_TAGS } from '../../app/api';

const sessionPath = (sessionId: string) => encodeURIComponent(sessionId);

/**
 * Checkout: start one (Stripe's hosted page, or our local test page when Stripe is not
 * configured), follow it until the payment lands, and the local page's pay and cancel.
 */
export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `url` is absolute for Stripe, or a path of this site for the local test checkout. */
    createCheckout: build.mutation<CheckoutResponse, CheckoutRequest>({
      query: (body) => ({ url: '/checkout', method: 'POST', body }),
    }),
    /** Polled by /success until the webhook has granted the credits. */
    getCheckoutStatus: build.query<CheckoutStatus, string>({
      query: (sessionId) => `/checkout/sessions/${sessionPath(sessionId)}`,
    }),
    getLocalCheckout: build.query<LocalCheckoutSession, string>({
      query: (sessionId) => `/checkout/local/${sessionPath(sessionId)}`,
    }),
    /** The server then delivers a signed webhook to itself: the credits land a moment later. */
    payLocalCheckout: build.mutation<LocalCheckoutResult, { sessionId: string } & LocalCheckoutPay>(
      {
        query: ({ sessionId, ...body }) => ({
          url: `/checkout/local/${sessionPath(sessionId)}/pay`,
          method: 'POST',
          body,
        }),
        invalidatesTags: [...MONEY_TAGS],
      },
    ),
    cancelLocalCheckout: build.mutation<LocalCheckoutResult, string>({
      query: (sessionId) => ({
        url: `/checkout/local/${sessionPath(sessionId)}/cancel`,
        method: 'POST',
      }),
    }),
  }),
});

export const {
  useCreateCheckoutMutation,
  useGetCheckoutStatusQuery,
  useGetLocalCheckoutQuery,
  usePayLocalCheckoutMutation,
  useCancelLocalCheckoutMutation,
} = checkoutApi;
