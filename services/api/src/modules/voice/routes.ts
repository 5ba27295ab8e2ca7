import {
  uuidIdSchema,
  voiceSessionEndRequestSchema,
  voiceSessionRequestSchema,
} from '@astra/contracts';
import { Router } from 'express';
import { requireUser } from '../../http/auth.ts';
import { pathId } from '../../http/params.ts';
import { endVoiceSession, startVoiceSession, type VoiceDeps, voiceStatus } from './sessions.ts';

const readingIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'Reading Not Found');
// Session ids are UUIDs too (derived from the Idempotency-Key, or random).
const sessionIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'No such voice session');

/** The voice guide of a reading: owner only (others' readings are 404), the server's clock decides. */
export function voiceRoutes(deps: VoiceDeps) {
  const router = Router();

  router.get('/readings/:id/voice', requireUser, async (req, res) => {
    res.json(await voiceStatus(deps, req, readingIdOf(req.params.id)));
  });

  router.post('/readings/:id/voice/sessions', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    voiceSessionRequestSchema.parse(req.body ?? {});
    res.status(201).json(await startVoiceSession(deps, req, readingId));
  });

  router.post('/readings/:id/voice/sessions/:sessionId/end', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    const sessionId = sessionIdOf(req.params.sessionId);
    const { reason } = voiceSessionEndRequestSchema.parse(req.body);
    res.json(await endVoiceSession(deps, req, readingId, sessionId, reason));
  });

  return router;
}
