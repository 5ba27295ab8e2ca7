import {
  insufficientCreditsErrorSchema,
  uuidIdSchema,
  voiceSessionActiveErrorSchema,
  voiceSessionEndedSchema,
  voiceSessionEndRequestSchema,
  voiceSessionRequestSchema,
  voiceSessionStartedSchema,
  voiceStatusSchema,
} from '@astra/contracts';
import { requireUser } from '../../http/auth.ts';
import { pathId } from '../../http/params.ts';
import {
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { endVoiceSession, startVoiceSession, type VoiceDeps, voiceStatus } from './sessions.ts';

const readingIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'Reading Not Found');
// Session ids are UUIDs too (derived from the Idempotency-Key, or random).
const sessionIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'No such voice session');

const descriptors = {
  readingVoice: {
    method: 'get',
    path: '/api/readings/{id}/voice',
    tag: 'Readings',
    summary:
      "The reading's voice guide: used, the running session with its seconds left, reactivations, credits charged (a session past its end is ended now)",
    auth: 'user',
    responses: ok(voiceStatusSchema),
    errors: [notFoundWhen("Unknown, someone else's, not completed, or deleted")],
  },
  startVoiceSession: {
    method: 'post',
    path: '/api/readings/{id}/voice/sessions',
    tag: 'Readings',
    summary:
      'Starts a voice session: the first is included in the reading, a later one is a reactivation that spends its price',
    auth: 'user',
    body: json(voiceSessionRequestSchema, false),
    responses: {
      201: {
        description: 'The session and how to connect to it',
        schema: voiceSessionStartedSchema,
      },
    },
    errors: [
      { status: 400, code: 'invalid_request', when: 'A body with fields' },
      {
        status: 402,
        code: 'insufficient_credits',
        when: 'A reactivation the balance does not cover; nothing is spent',
        schema: insufficientCreditsErrorSchema,
      },
      { status: 403, code: 'account_blocked', when: 'The account is blocked; nothing is written' },
      notFoundWhen("Unknown, someone else's, not completed, or deleted"),
      {
        status: 409,
        code: 'voice_session_active',
        when: 'A session of this reading runs (or is being started); it is named',
        schema: voiceSessionActiveErrorSchema,
      },
      {
        status: 409,
        code: 'voice_session_failed',
        when: 'The same Idempotency-Key again, for a session that failed or is over',
      },
      {
        status: 502,
        code: 'voice_unavailable',
        when: 'The voice service failed or timed out; a reactivation was given back',
      },
    ],
    command: true,
  },
  endVoiceSession: {
    method: 'post',
    path: '/api/readings/{id}/voice/sessions/{sessionId}/end',
    tag: 'Readings',
    summary:
      'Ends a voice session (early, on leaving, at the timer, or never connected: a reactivation is then given back); ending twice is answered as the first end',
    auth: 'user',
    body: json(voiceSessionEndRequestSchema),
    responses: ok(voiceSessionEndedSchema),
    errors: [
      { status: 400, code: 'invalid_request', when: 'A missing or unknown `reason`' },
      notFoundWhen("Unknown reading or session, someone else's, or deleted"),
      {
        status: 409,
        code: 'voice_session_starting',
        when: 'The session is still being started; the clock ends it if it is never ended',
      },
    ],
    command: true,
  },
} satisfies RouteDescriptors;

/** The voice guide of a reading: owner only (others' readings are 404), the server's clock decides. */
export const voiceRoutes = describedRouter(descriptors, (deps: VoiceDeps, route) => {
  route('readingVoice', requireUser, async (req, res) => {
    res.json(await voiceStatus(deps, req, readingIdOf(req.params.id)));
  });

  route('startVoiceSession', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    voiceSessionRequestSchema.parse(req.body ?? {});
    res.status(201).json(await startVoiceSession(deps, req, readingId));
  });

  route('endVoiceSession', requireUser, async (req, res) => {
    const readingId = readingIdOf(req.params.id);
    const sessionId = sessionIdOf(req.params.sessionId);
    const { reason } = voiceSessionEndRequestSchema.parse(req.body);
    res.json(await endVoiceSession(deps, req, readingId, sessionId, reason));
  });
});
