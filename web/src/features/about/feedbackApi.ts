import type { FeedbackRequest } from '@astra/contracts';
import { api } from '../../app/api';

export const feedbackApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendFeedback: build.mutation<{ ok: boolean; message: string }, FeedbackRequest>({
      query: (body) => ({ url: '/feedback', method: 'POST', body }),
    }),
  }),
});

export const { useSendFeedbackMutation } = feedbackApi;
