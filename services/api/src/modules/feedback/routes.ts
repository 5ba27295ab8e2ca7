import { feedbackCreatedSchema, feedbackRequestSchema } from '@astra/contracts';
import type { AppDeps } from '../../dependencies.ts';
import { requireSignedIn } from '../../http/auth.ts';
import { commandIdOf } from '../../http/commandIds.ts';
import { describedRouter, json, type RouteDescriptors } from '../../http/routeDescriptors.ts';

const descriptors = {
  submitFeedback: {
    method: 'post',
    path: '/api/feedback',
    tag: 'Account',
    summary: 'Feedback from the About page',
    auth: 'user',
    body: json(feedbackRequestSchema),
    responses: { 201: { description: 'Received', schema: feedbackCreatedSchema } },
    errors: [],
    command: true,
  },
} satisfies RouteDescriptors;

/** Feedback from the About page: one `feedback-{id}` stream per message. */
export const feedbackRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger, consistency } = deps;

  route(
    'submitFeedback',
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
});
