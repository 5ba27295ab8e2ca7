import { feedbackEventSchemas } from '@astra/contracts';
import { forgetFeedback, forgetting } from './erasure.ts';
import { chunks, inCategory, occurredAt, type Projection } from './projection.ts';

/**
 * `feedback`: one row per message. A feedback stream holds one event, so the row's key is the
 * guard: a replayed event meets its own row and changes nothing. An erased user's messages are
 * blanked (`forgetting`).
 */
const feedbackRows: Projection = {
  name: 'feedback',
  tables: ['feedback'],
  categories: ['feedback'],
  async apply(db, events) {
    const rows = inCategory(events, 'feedback', feedbackEventSchemas).flatMap(({ event }) => {
      const feedback = event;
      if (feedback.type !== 'FeedbackSubmitted') return [];
      return [
        {
          feedback_id: feedback.data.feedbackId,
          user_id: feedback.data.userId,
          message: feedback.data.message,
          created_at: occurredAt(event),
        },
      ];
    });
    for (const part of chunks(rows, 1000)) {
      await db
        .insertInto('feedback')
        .values(part)
        .onConflict((oc) => oc.column('feedback_id').doNothing())
        .execute();
    }
  },
};

export const feedbackProjection = forgetting(feedbackRows, forgetFeedback);
