import { type VoiceEndReason, voiceMessages } from '@astra/contracts';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../app/api';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { notifyError, notifySuccess, SUCCESS_TOAST_MS, toaster } from '../../ui/toaster';
import { newIdempotencyKey } from '../admin/adminFormat';
import { useCurrentUser } from '../auth/authApi';
import { APP_IDS } from '../readings/readingCatalog';
import { deadlineFrom, secondsUntil, sessionMinutes } from './countdown';
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
  /** The reading's text, for the offline guide of a session found running after a reload. */
  readingText: string;
  children: ReactNode;
}

const notifyInfo = (title: string) =>
  toaster.create({ type: 'info', title, duration: SUCCESS_TOAST_MS });

/**
 * The voice guide of one reading on its result page (spec §4 "Voice session"): the server's
 * status, the session this page holds and its countdown, starting, ending at zero or early, and
 * ending on leaving the page. The server's clock decides when a session is over; the countdown
 * here only shows it and says so at zero.
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
  const [startSession, { isLoading: starting }] = useStartVoiceSessionMutation();
  const [endSession] = useEndVoiceSessionMutation();

  const celticCross = appId === APP_IDS.celticCross;
  const startLabel = appId === APP_IDS.compatibility ? voiceMessages.activate : voiceMessages.speak;

  const [session, setSession] = useState<LocalVoiceSession | null>(null);
  const sessionRef = useRef<LocalVoiceSession | null>(null);
  /** Sessions this page ended: a cached status that still shows them running is not believed. */
  const endedIds = useRef(new Set<string>());
  const [now, setNow] = useState(() => Date.now());
  /** What the countdown shows between sessions (null: a full session). */
  const [restingSeconds, setRestingSeconds] = useState<number | null>(null);
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

  /** Ends the session this page holds, by the user, the clock or a connection never made. */
  const finish = useCallback(
    async (reason: Exclude<VoiceEndReason, 'left'>) => {
      const ending = sessionRef.current;
      if (!ending) return;
      endedIds.current.add(ending.sessionId);
      hold(null);
      const sessionSeconds = status?.sessionSeconds ?? null;
      setRestingSeconds(celticCross ? sessionSeconds : secondsUntil(ending.deadline, Date.now()));
      // A conversation that was never made is told as such: its reactivation is given back.
      const told: VoiceEndReason = ending.connected ? reason : 'connect_failed';
      if (reason === 'time_up') {
        if (celticCross) notifyInfo(voiceMessages.celticCrossTimeUp);
        else notifySuccess(voiceMessages.completed);
      } else if (reason === 'ended_early') {
        notifyInfo(voiceMessages.ended);
      } else {
        notifyError(voiceMessages.providerFailed);
      }
      try {
        await endSession({ readingId, sessionId: ending.sessionId, reason: told }).unwrap();
      } catch (error) {
        // Already over on the server (its clock, another tab): nothing is wrong.
        if (describeApiError(error).status !== 404) notifyError(voiceMessages.updateFailed);
        refreshAfterLeaving();
      }
    },
    [celticCross, endSession, hold, readingId, refreshAfterLeaving, status?.sessionSeconds],
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

  // A session found running (a reload, another tab): shown with its time left, and endable.
  // One that the server no longer shows, from a status asked after this page knew of it, ended
  // elsewhere: the conversation here stops too.
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
          connected: true,
          knownSince: Date.now(),
        });
      }
      return;
    }
    const askedAfter = (startedTimeStamp ?? 0) > current.knownSince;
    if (askedAfter && active?.sessionId !== current.sessionId && !status.starting) {
      endedIds.current.add(current.sessionId);
      hold(null);
      setRestingSeconds(celticCross ? status.sessionSeconds : 0);
      notifyInfo(voiceMessages.ended);
    }
  }, [celticCross, fulfilledTimeStamp, hold, isFetching, startedTimeStamp, starting, status]);

  // Leaving the page (another route, a closed tab, a reload): the conversation and its audio
  // stop, and the server is told with a request that outlives the page.
  useEffect(() => {
    mounted.current = true;
    const leave = () => {
      const leaving = sessionRef.current;
      stopSpeaking();
      if (!leaving) return;
      endedIds.current.add(leaving.sessionId);
      sessionRef.current = null;
      void endVoiceSessionOnLeave(
        readingId,
        leaving.sessionId,
        leaving.connected ? 'left' : 'connect_failed',
        refreshAfterLeaving,
      );
    };
    const onPageHide = () => {
      leave();
      setSession(null);
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

  const press = useCallback(async () => {
    if (sessionRef.current) {
      focusControl();
      return;
    }
    if (!status || starting) return;
    try {
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
      setRestingSeconds(null);
      hold({
        sessionId: started.session.sessionId,
        provider: started.connection.provider,
        reactivation: started.session.reactivation,
        deadline: deadlineFrom(started.session, receivedAt),
        connection: started.connection,
        connected: started.connection.provider === 'offline',
        knownSince: receivedAt,
      });
      const minutes = sessionMinutes(started.voice.sessionSeconds);
      notifySuccess(
        started.session.reactivation
          ? voiceMessages.reactivated(minutes)
          : voiceMessages.activated(minutes),
      );
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
    }
  }, [dispatch, focusControl, hold, readingId, startSession, starting, status]);

  const markConnected = useCallback(() => {
    const current = sessionRef.current;
    if (current && !current.connected) hold({ ...current, connected: true });
  }, [hold]);

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
      shownSeconds: secondsLeft ?? restingSeconds ?? status?.sessionSeconds ?? null,
      starting,
      balance,
      insufficient,
      press: () => void press(),
      endEarly: () => void finish('ended_early'),
      markConnected,
      connectFailed: () => void finish('connect_failed'),
      controlRef,
    }),
    [
      balance,
      celticCross,
      finish,
      firstName,
      insufficient,
      markConnected,
      press,
      readingId,
      readingText,
      restingSeconds,
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
