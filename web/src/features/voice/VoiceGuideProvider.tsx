import { type VoiceEndReason, type VoiceStatus, voiceMessages } from '@astra/contracts';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, notifySuccess, SUCCESS_TOAST_MS, toaster } from '../../ui/toaster';
import { newIdempotencyKey } from '../admin/adminFormat';
import { useCurrentUser } from '../auth/authApi';
import { readingOfApp } from '../readings/readingCatalog';
import { connectDeadline, deadlineFrom, secondsUntil } from './countdown';
import { askForMicrophone, type MicrophoneProblem } from './microphone';
import { stopSpeaking } from './speech';
import {
  endVoiceSessionOnLeave,
  useEndVoiceSessionMutation,
  useGetVoiceQuery,
  useStartVoiceSessionMutation,
  voiceTagsChangedBy,
} from './voiceApi';
import { type LocalVoiceSession, type VoiceGuide, VoiceGuideContext } from './voiceGuideContext';

interface VoiceGuideProviderProps {
  readingId: string;
  appId: number;
  firstName: string | null;
  /** The reading's text, for the offline guide of a session found running (started elsewhere). */
  readingText: string;
  children: ReactNode;
}

const notifyInfo = (title: string) =>
  toaster.create({ type: 'info', title, duration: SUCCESS_TOAST_MS });

/** The end messages of the spec (§8) that the server's answer to an end may carry. */
const SPEC_END_MESSAGES: readonly string[] = [
  voiceMessages.ended,
  voiceMessages.completed,
  voiceMessages.celticCrossTimeUp,
];

/**
 * The voice guide of one reading on its result page (spec §4 "Voice session"): the server's
 * status, the session this page holds and its countdown, starting (the microphone asked first
 * where the conversation needs one, so a refusal costs nothing), ending at zero or early, and
 * ending on leaving the page the session this page started. The server's clock decides when a
 * session is over; the countdown here only shows it and says so at zero.
 */
export function VoiceGuideProvider({
  readingId,
  appId,
  firstName,
  readingText,
  children,
}: VoiceGuideProviderProps) {
  const dispatch = useAppDispatch();
  const { me } = useCurrentUser();
  const voiceQuery = useGetVoiceQuery(readingId, {
    refetchOnFocus: true,
    refetchOnMountOrArgChange: true,
  });
  const { isError: statusError, refetch: refetchStatus } = voiceQuery;
  const status = voiceQuery.data;
  const [startSession, { isLoading: posting }] = useStartVoiceSessionMutation();
  /** Asking for the microphone before a start (the button shows it as starting). */
  const [askingMicrophone, setAskingMicrophone] = useState(false);
  const starting = posting || askingMicrophone;
  /** A press being handled, from the microphone's question to the start's answer. */
  const pressing = useRef(false);
  const [microphoneProblem, setMicrophoneProblem] = useState<MicrophoneProblem | null>(null);
  const [endSession] = useEndVoiceSessionMutation();

  const kind = readingOfApp(appId)?.slug;
  const celticCross = kind === 'tarot-celtic-cross';
  const startLabel = kind === 'compatibility' ? voiceMessages.activate : voiceMessages.speak;

  const [session, setSession] = useState<LocalVoiceSession | null>(null);
  const sessionRef = useRef<LocalVoiceSession | null>(null);
  /** Sessions this page ended: a cached status that still shows them running is not believed. */
  const endedIds = useRef(new Set<string>());
  const [now, setNow] = useState(() => Date.now());
  const controlRef = useRef<HTMLDivElement | null>(null);
  const mounted = useRef(true);

  const hold = useCallback((next: LocalVoiceSession | null) => {
    sessionRef.current = next;
    setSession(next);
    if (next) setNow(Date.now());
  }, []);

  const refreshAfterLeaving = useCallback(
    () => dispatch(api.util.invalidateTags(voiceTagsChangedBy(readingId))),
    [dispatch, readingId],
  );

  /**
   * Ends the session this page holds: at zero by the clock (`time_up`), early by the user or
   * because its conversation closed (`ended_early`), or because its conversation could not be made
   * (`connect_failed`, with the microphone's problem when that was the cause). With `sessionId`,
   * only if that is still the session held (a late report of an old conversation ends nothing).
   */
  const finish = useCallback(
    async (
      reason: Exclude<VoiceEndReason, 'left'>,
      sessionId?: string,
      microphone?: MicrophoneProblem,
    ) => {
      const ending = sessionRef.current;
      if (!ending || (sessionId !== undefined && ending.sessionId !== sessionId)) return;
      endedIds.current.add(ending.sessionId);
      hold(null);
      // A conversation that was never made is told as such: its reactivation is given back.
      const told: VoiceEndReason = !ending.connected
        ? 'connect_failed'
        : reason === 'connect_failed'
          ? 'ended_early'
          : reason;
      if (reason === 'time_up') {
        // The browser's own zero: the spec's words, whatever the server's clock made of it.
        if (celticCross) notifyInfo(voiceMessages.celticCrossTimeUp);
        else notifySuccess(voiceMessages.completed);
      } else if (reason === 'connect_failed') {
        if (microphone) setMicrophoneProblem(microphone);
        else notifyError(voiceMessages.providerFailed);
      }
      try {
        const ended = await endSession({
          readingId,
          sessionId: ending.sessionId,
          reason: told,
        }).unwrap();
        // An early end says what the server recorded ('Voice session ended', or at the very end
        // its time-up), in the spec's words.
        if (reason === 'ended_early') {
          notifyInfo(
            SPEC_END_MESSAGES.includes(ended.message) ? ended.message : voiceMessages.ended,
          );
        }
      } catch (error) {
        // Already over on the server (its clock, another window): nothing is wrong.
        const over = describeApiError(error).status === 404;
        if (reason === 'ended_early' && over) notifyInfo(voiceMessages.ended);
        if (!over) notifyError(voiceMessages.updateFailed);
        refreshAfterLeaving();
      }
    },
    [celticCross, endSession, hold, readingId, refreshAfterLeaving],
  );

  // The countdown: one tick a second on the browser's clock while a session runs.
  useEffect(() => {
    if (!session) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [session]);

  const secondsLeft = session ? secondsUntil(session.deadline, now) : null;
  useEffect(() => {
    if (session && secondsLeft === 0) void finish('time_up');
  }, [finish, secondsLeft, session]);

  // A session found running (started in another window, or left open by an earlier page): shown
  // with its time left and endable early, but not this page's to end on leaving. One that the
  // server no longer shows, from a status asked after this page knew of it, ended elsewhere: the
  // conversation here stops too.
  const { fulfilledTimeStamp, startedTimeStamp, isFetching } = voiceQuery;
  useEffect(() => {
    if (!status || isFetching || starting) return;
    const current = sessionRef.current;
    const active = status.active;
    if (!current) {
      if (active && !endedIds.current.has(active.sessionId)) {
        const receivedAt = fulfilledTimeStamp ?? Date.now();
        hold({
          sessionId: active.sessionId,
          provider: active.provider,
          reactivation: active.reactivation,
          deadline: deadlineFrom(active, receivedAt),
          connection: null,
          owned: false,
          connected: true,
          connectBy: receivedAt,
          knownSince: Date.now(),
        });
      }
      return;
    }
    const askedAfter = (startedTimeStamp ?? 0) > current.knownSince;
    if (askedAfter && active?.sessionId !== current.sessionId && !status.starting) {
      endedIds.current.add(current.sessionId);
      hold(null);
      notifyInfo(voiceMessages.ended);
    }
  }, [fulfilledTimeStamp, hold, isFetching, startedTimeStamp, starting, status]);

  // Leaving the page (another route, a closed tab, a reload): the conversation and its audio
  // stop, and the server is told with a request that outlives the page, for the session this
  // page started. A session found running belongs to the window that started it (or to the
  // server's clock): leaving this page does not end it.
  useEffect(() => {
    mounted.current = true;
    /** Whether a session of this page's was ended. */
    const leave = () => {
      const leaving = sessionRef.current;
      stopSpeaking();
      if (!leaving?.owned) return false;
      endedIds.current.add(leaving.sessionId);
      sessionRef.current = null;
      void endVoiceSessionOnLeave(
        readingId,
        leaving.sessionId,
        leaving.connected ? 'left' : 'connect_failed',
        refreshAfterLeaving,
      );
      return true;
    };
    const onPageHide = () => {
      if (leave()) setSession(null);
    };
    // Back from the browser's page cache: the session was ended on leaving; ask again.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) refreshAfterLeaving();
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      mounted.current = false;
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      leave();
    };
  }, [readingId, refreshAfterLeaving]);

  const focusControl = useCallback(() => {
    const control = controlRef.current;
    if (!control) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    control.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'center' });
    control.focus({ preventScroll: true });
  }, []);

  const balance = me?.remainingCredits;
  const cost = status?.nextSessionCost ?? 0;
  const insufficient = Boolean(status && cost > 0 && balance !== undefined && balance < cost);

  /** Asks for the microphone where the conversation needs one: before anything is started. */
  const microphoneReady = useCallback(async (provider: VoiceStatus['provider']) => {
    if (provider !== 'elevenlabs') return true;
    setAskingMicrophone(true);
    try {
      const answer = await askForMicrophone();
      if (!mounted.current) return false;
      if (answer === 'granted') return true;
      setMicrophoneProblem(answer);
      return false;
    } finally {
      setAskingMicrophone(false);
    }
  }, []);

  const press = useCallback(async () => {
    if (sessionRef.current) {
      focusControl();
      return;
    }
    if (!status || starting || pressing.current) return;
    pressing.current = true;
    setMicrophoneProblem(null);
    try {
      // A refused or missing microphone is said, with a way to retry; nothing is started.
      if (!(await microphoneReady(status.provider))) return;
      const started = await startSession({
        readingId,
        idempotencyKey: newIdempotencyKey(),
      }).unwrap();
      const receivedAt = Date.now();
      if (!mounted.current) {
        // The page was left while the session started: it is not wanted.
        void endVoiceSessionOnLeave(readingId, started.session.sessionId, 'connect_failed');
        return;
      }
      endedIds.current.delete(started.session.sessionId);
      const deadline = deadlineFrom(started.session, receivedAt);
      hold({
        sessionId: started.session.sessionId,
        provider: started.connection.provider,
        reactivation: started.session.reactivation,
        deadline,
        connection: started.connection,
        owned: true,
        connected: started.connection.provider === 'offline',
        connectBy: connectDeadline(started.session, deadline, receivedAt),
        knownSince: receivedAt,
      });
      // The server's words ('Voice agent activated! 5 minutes remaining.', or reactivated).
      notifySuccess(started.message);
    } catch (error) {
      const info = describeApiError(error);
      const body = (error as { data?: { required?: unknown } }).data;
      if (info.status === 402) {
        const required =
          typeof body?.required === 'number' ? body.required : status.reactivationCost;
        notifyError(voiceMessages.insufficient(required));
        dispatch(api.util.invalidateTags(['Me']));
      } else if (info.status === 409 && info.code === 'voice_session_active') {
        // The server names the running session: shown here once the status is read again.
        const running = (error as { data?: { sessionId?: unknown } }).data?.sessionId;
        if (typeof running === 'string') endedIds.current.delete(running);
        notifyError(voiceMessages.alreadyActive);
        dispatch(api.util.invalidateTags([{ type: 'Voice', id: readingId }]));
      } else if (info.status === 502) {
        notifyError(info.message ?? voiceMessages.providerFailed);
      } else if (info.status === 403 && info.message) {
        notifyError(info.message);
      } else {
        notifyError(
          status.used
            ? voiceMessages.reactivateFailed
            : (info.message ?? voiceMessages.updateFailed),
        );
      }
    } finally {
      pressing.current = false;
    }
  }, [dispatch, focusControl, hold, microphoneReady, readingId, startSession, starting, status]);

  const markConnected = useCallback(
    (sessionId: string) => {
      const current = sessionRef.current;
      if (current?.sessionId === sessionId && !current.connected)
        hold({ ...current, connected: true });
    },
    [hold],
  );

  const value = useMemo<VoiceGuide>(
    () => ({
      readingId,
      firstName,
      readingText,
      celticCross,
      startLabel,
      status,
      statusFailed: statusError && !status,
      retryStatus: () => void refetchStatus(),
      session,
      // Between sessions: what the next one gives (a reactivation is a fresh full session).
      shownSeconds: secondsLeft ?? status?.sessionSeconds ?? null,
      starting,
      microphoneProblem,
      balance,
      insufficient,
      press: () => void press(),
      endEarly: () => void finish('ended_early'),
      markConnected,
      connectFailed: (sessionId, microphone) =>
        void finish('connect_failed', sessionId, microphone),
      conversationClosed: (sessionId) => void finish('ended_early', sessionId),
      controlRef,
    }),
    [
      balance,
      celticCross,
      finish,
      firstName,
      insufficient,
      markConnected,
      microphoneProblem,
      press,
      readingId,
      readingText,
      secondsLeft,
      session,
      startLabel,
      starting,
      status,
      statusError,
      refetchStatus,
    ],
  );

  return <VoiceGuideContext.Provider value={value}>{children}</VoiceGuideContext.Provider>;
}
