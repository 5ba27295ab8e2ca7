import { feedbackRequestSchema } from '@astra/contracts';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireSignedIn } from '../../http/auth.ts';
import { commandIdOf } from '../../http/commandIds.ts';

/** Feedback from the About page: one `feedback-{id}` stream per message. */
export function feedbackRoutes({ ledger, consistency }: AppDeps) {
  const router = Router();

  router.post(
    '/feedback',
    requireSignedIn('Please sign in to submit feedback'),
    async (req, res) => {
      const { message } = feedbackRequestSchema.parse(req.body);
      const feedbackId = commandIdOf(req, 'feedback');
      const handled = await ledger.handle(
        'feedback',
        feedbackId,
        { type: 'SubmitFeedback', feedbackId, userId: req.user!.id, message },
        req.context,
      );
      await consistency.settle(req, handled.position);
      res.status(201).json({ ok: true, message: 'Thank you for your feedback!', feedbackId });
    },
  );

  return router;
}
