import type { Me, ProfileUpdate } from '@astra/contracts';
import {
  type BirthDateParts,
  composeBirthDate,
  isImpossibleDate,
  partsFromDate,
} from './birthDateParts';

/** The editable profile as form state: plain strings, empty meaning "not set". */
export interface ProfileDraft {
  firstName: string;
  lastName: string;
  birthDate: BirthDateParts;
  birthTime: string;
  birthCity: string;
  birthCountry: string;
}

export function draftFromMe(me: Me): ProfileDraft {
  return {
    firstName: me.firstName ?? '',
    lastName: me.lastName ?? '',
    birthDate: partsFromDate(me.birthDate),
    birthTime: me.birthTime ?? '',
    birthCity: me.birthCity ?? '',
    birthCountry: me.birthCountry ?? '',
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The PATCH body: every field is sent; empty ones clear (null). */
export function draftToUpdate(draft: ProfileDraft): ProfileUpdate {
  return {
    firstName: orNull(draft.firstName),
    lastName: orNull(draft.lastName),
    birthDate: composeBirthDate(draft.birthDate),
    // <input type="time"> may answer HH:MM:SS when seconds are shown; the API wants HH:MM.
    birthTime: orNull(draft.birthTime.slice(0, 5)),
    birthCity: orNull(draft.birthCity),
    birthCountry: orNull(draft.birthCountry),
  };
}

export const draftIsSavable = (draft: ProfileDraft) => !isImpossibleDate(draft.birthDate);
