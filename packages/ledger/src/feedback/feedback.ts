import type { FeedbackEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';

/** One message a user sent: its stream holds it once. */
export interface Feedback {
  submitted: boolean;
}

export type FeedbackCommand = {
  type: 'SubmitFeedback';
  feedbackId: string;
  userId: string;
  message: string;
};

export const feedbackDecider: Decider<Feedback, FeedbackCommand, FeedbackEvent> = {
  initialState: () => ({ submitted: false }),
  evolve: () => ({ submitted: true }),
  // A repeated submission of the same feedback id changes nothing.
  decide: (command, state) =>
    state.submitted
      ? []
      : [
          {
            type: 'FeedbackSubmitted',
            data: {
              feedbackId: command.feedbackId,
              userId: command.userId,
              message: command.message,
            },
          },
        ],
};
