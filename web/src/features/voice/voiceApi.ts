import type {
  VoiceEndReason,
  VoiceSessionEnded,
  VoiceSessionStarted,
  VoiceStatus,
} from '@astra/contracts';
import { api, CREDIT_TAGS, libraryItemTag } from '../../app/api';
import { showBalance } from '../auth/authApi';

const voiceTag = (readingId: string) => ({ type: 'Voice' as const, id: readingId });
const voicePath = (readingId: string) => `/readings/${encodeURIComponent(readingId)}/voice`;

/** What a start or an end changes: the reading's voice, the balance and history, its library row. */
const changedBy = (readingId: string) => [
  voiceTag(readingId),
  ...CREDIT_TAGS,
  libraryItemTag(readingId),
];

export interface StartVoiceArgs {
  readingId: string;
  /** One per press of the button: a retried request never starts (or charges) twice. */
  idempotencyKey: string;
}

export interface EndVoiceArgs {
  readingId: string;
  sessionId: string;
  reason: VoiceEndReason;
}

/**
 * After a start or an end: the reading's voice status and the balance the server answered with,
 * in the cache at once. A failure is the caller's to show.
 */
async function showAnswer(
  readingId: string,
  {
    dispatch,
    queryFulfilled,
  }: {
    dispatch: (action: unknown) => unknown;
    queryFulfilled: Promise<{ data: { voice: VoiceStatus; remainingCredits: number } }>;
  },
): Promise<void> {
  try {
    const { data } = await queryFulfilled;
    dispatch(voiceApi.util.upsertQueryData('getVoice', readingId, data.voice));
    showBalance(dispatch, data.remainingCredits);
  } catch {
    // the caller shows the error
  }
}

export const voiceApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The reading's voice guide: used, the running session and what the next one costs. */
    getVoice: build.query<VoiceStatus, string>({
      query: (readingId) => voicePath(readingId),
      providesTags: (_result, _error, readingId) => [voiceTag(readingId)],
    }),
    /** Starts the included session, or a reactivation that spends its price. */
    startVoiceSession: build.mutation<VoiceSessionStarted, StartVoiceArgs>({
      query: ({ readingId, idempotencyKey }) => ({
        url: `${voicePath(readingId)}/sessions`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: {},
      }),
      invalidatesTags: (_result, _error, { readingId }) => changedBy(readingId),
      onQueryStarted: ({ readingId }, lifecycle) => showAnswer(readingId, lifecycle),
    }),
    /** Ends a session; one that never connected gives its reactivation back. */
    endVoiceSession: build.mutation<VoiceSessionEnded, EndVoiceArgs>({
      query: ({ readingId, sessionId, reason }) => ({
        url: `${voicePath(readingId)}/sessions/${encodeURIComponent(sessionId)}/end`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: (_result, _error, { readingId }) => changedBy(readingId),
      onQueryStarted: ({ readingId }, lifecycle) => showAnswer(readingId, lifecycle),
    }),
  }),
});

export const { useGetVoiceQuery, useStartVoiceSessionMutation, useEndVoiceSessionMutation } =
  voiceApi;

/**
 * Tells the server a session is over while the page goes away: a `keepalive` request outlives
 * the page. Same-origin, so the browser's `Sec-Fetch-Site` header passes the API's cross-site
 * check (the app sends no CSRF token of its own). Resolves whether or not it got through.
 */
export async function endVoiceSessionOnLeave(
  readingId: string,
  sessionId: string,
  reason: Extract<VoiceEndReason, 'left' | 'connect_failed'>,
  onDone?: () => void,
): Promise<void> {
  try {
    await fetch(`/api${voicePath(readingId)}/sessions/${encodeURIComponent(sessionId)}/end`, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason }),
    });
  } catch {
    // The server ends the session by its own clock anyway.
  }
  onDone?.();
}

export const voiceTagsChangedBy = changedBy;
