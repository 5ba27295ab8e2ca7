import type { BirthPlace, Me, PlaceView, ProfileUpdate } from '@astra/contracts';
import type { EnteredCoordinates } from '../readings/form/birthDataDraft';
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
  /** "I don't know my birth time": readings from the profile are drawn without one. */
  birthTimeUnknown: boolean;
  birthCity: string;
  birthCountry: string;
  /** The place chosen from the suggestions (or found for the saved city); null: free text. */
  birthPlace: PlaceView | null;
  /** The birthplace typed as coordinates (a place the suggestions lack); else null. */
  entered: EnteredCoordinates | null;
}

export function draftFromMe(me: Me): ProfileDraft {
  return {
    firstName: me.firstName ?? '',
    lastName: me.lastName ?? '',
    birthDate: partsFromDate(me.birthDate),
    birthTime: me.birthTime ?? '',
    birthTimeUnknown: me.birthTimeUnknown,
    birthCity: me.birthCity ?? '',
    birthCountry: me.birthCountry ?? '',
    birthPlace: me.birthPlace,
    entered: null,
  };
}

/** The place the server found at typed coordinates: the profile keeps it as its birthplace. */
export const chooseEnteredPlace = (draft: ProfileDraft, place: PlaceView | null): ProfileDraft => ({
  ...draft,
  birthCity: place?.name ?? '',
  birthCountry: place?.countryName ?? '',
  birthPlace: place,
});

/** A place chosen from the suggestions fills the city and country. */
export const chooseBirthPlace = (draft: ProfileDraft, place: PlaceView): ProfileDraft => ({
  ...draft,
  birthCity: place.name,
  birthCountry: place.countryName,
  birthPlace: place,
});

const placeOf = ({ standardTimeSince: _derived, ...place }: PlaceView): BirthPlace => place;

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/**
 * The PATCH body: every field is sent; empty ones clear (null). A chosen place goes along;
 * without one the server looks the city and country up by name.
 */
export function draftToUpdate(draft: ProfileDraft): ProfileUpdate {
  return {
    firstName: orNull(draft.firstName),
    lastName: orNull(draft.lastName),
    birthDate: composeBirthDate(draft.birthDate),
    // <input type="time"> may answer HH:MM:SS when seconds are shown; the API wants HH:MM.
    birthTime: draft.birthTimeUnknown ? null : orNull(draft.birthTime.slice(0, 5)),
    // Null, not false, when unchecked: a profile that never said so stays as it was.
    birthTimeUnknown: draft.birthTimeUnknown || null,
    birthCity: orNull(draft.birthCity),
    birthCountry: orNull(draft.birthCountry),
    ...(draft.birthPlace ? { birthPlace: placeOf(draft.birthPlace) } : {}),
  };
}

export const draftIsSavable = (draft: ProfileDraft) => !isImpossibleDate(draft.birthDate);
