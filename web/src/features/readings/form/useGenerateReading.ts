import { type ReadingKind, readingMessages } from '@astra/contracts';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { describeApiError } from '../../../app/apiErrors';
import { clearFormErrors, notifyError, notifyFormError } from '../../../ui/toaster';
import { newIdempotencyKey } from '../../admin/adminFormat';
import { useCurrentUser } from '../../auth/authApi';
import { pricingPathReturningTo } from '../../pricing/purchaseReturn';
import { READINGS } from '../readingCatalog';
import { type ReadingRequest, useStartReadingMutation } from '../readingsApi';
import { WRITING_STATE } from '../result/useSavedReading';
import { preloadResultPage } from '../resultPages';
import { useReadingCost } from './useReadingCost';

/** Server field errors by the request's field path ('city', 'person1.city', …). */
export type FieldErrors = Record<string, string>;

export const insufficientCreditsText = (cost: number, balance: number) =>
  `You need ${cost} credits but have ${balance}.`;

/** 'person1.birthDate' → 'Person 1 birth date', for messages such as 'must be a date'. */
const fieldName = (path: string) =>
  path
    .replace(/person(\d)\./, 'Person $1 ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^./, (first) => first.toUpperCase());

/** A server field error as a sentence: full sentences as they are, fragments with the field. */
export const fieldErrorText = ({ field, message }: { field: string; message: string }) =>
  /^[a-z]/.test(message) ? `${fieldName(field)} ${message}.` : message;

/**
 * Spec §4 generation: credit pre-check, then the reading is started (spent for, its facts
 * computed) and its result page shown at once, where the text streams in as it is written. A
 * refusal (credits, a blocked account, bad input) is a toast and the form again with its input
 * (the page keeps its state, the loading card only covers it); a failure of the writing is told
 * on the result page.
 */
export function useGenerateReading(slug: ReadingKind) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { me } = useCurrentUser();
  const cost = useReadingCost(slug);
  const [startReading, { isLoading: generating }] = useStartReadingMutation();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // No new state when there was nothing to clear: the form is not rendered again for it.
  const clearFieldErrors = () =>
    setFieldErrors((errors) => (Object.keys(errors).length ? {} : errors));
  // The result page opens the moment the reading starts: its code is fetched while the form is
  // filled in.
  useEffect(() => preloadResultPage(slug), [slug]);

  const failed = (message: string) => {
    if (slug === 'natal-chart') notifyFormError('Generation failed', message);
    else notifyFormError(message);
  };

  const generate = async (request: ReadingRequest) => {
    if (!me) {
      notifyFormError('Unable to verify credits');
      return;
    }
    // Not a dead end: to the plans, which lead back to this form once paid.
    if (me.remainingCredits < cost) {
      notifyError('Insufficient credits', insufficientCreditsText(cost, me.remainingCredits));
      navigate(pricingPathReturningTo(pathname));
      return;
    }
    clearFieldErrors();
    try {
      const started = await startReading({
        ...request,
        idempotencyKey: newIdempotencyKey(),
      }).unwrap();
      // The form's earlier refusals are answered: they must not stay over the result.
      clearFormErrors();
      // Rendered at once rather than as a transition, so the wheel is painted before the rest.
      navigate(READINGS[slug].resultPath(started.readingId), {
        state: WRITING_STATE,
        flushSync: true,
      });
    } catch (failure) {
      const info = describeApiError(failure);
      if (info.status === 402 || info.code === 'insufficient_credits') {
        notifyError('Insufficient credits', readingMessages.insufficientCredits);
        navigate(pricingPathReturningTo(pathname));
      } else if (info.code === 'account_blocked') {
        notifyError(info.message ?? readingMessages.accountBlocked);
        navigate('/app', { replace: true });
      } else if (info.fields?.length) {
        setFieldErrors(Object.fromEntries(info.fields.map((f) => [f.field, fieldErrorText(f)])));
        failed(info.fields.map(fieldErrorText).join(' '));
      } else {
        failed(info.message ?? readingMessages.generationFailed);
      }
    }
  };

  return {
    generate,
    generating,
    cost,
    fieldErrors,
    clearFieldErrors,
  };
}
