import type { BirthData, Me, PlaceView } from '@astra/contracts';
import {
  type BirthDateParts,
  composeBirthDate,
  EMPTY_BIRTH_DATE,
  partsFromDate,
} from '../../profile/birthDateParts';

/** A chosen suggestion's position, sent along so the server need not look the place up. */
export interface PlaceCoordinates {
  latitude: number;
  longitude: number;
  timezone: string;
}

/** One person's birth data as form state (natal chart, and each person of a compatibility). */
export interface BirthDataDraft {
  firstName: string;
  lastName: string;
  birthDate: BirthDateParts;
  birthTime: string;
  city: string;
  country: string;
  coordinates: PlaceCoordinates | null;
}

export const EMPTY_BIRTH_DATA: BirthDataDraft = {
  firstName: '',
  lastName: '',
  birthDate: EMPTY_BIRTH_DATE,
  birthTime: '',
  city: '',
  country: '',
  coordinates: null,
};

const filled = (text: string) => text.trim() !== '';

/** Every field non-blank and the three date parts a real day (spec §5, natal and compatibility). */
export const birthDataIsComplete = (draft: BirthDataDraft): boolean =>
  filled(draft.firstName) &&
  filled(draft.lastName) &&
  composeBirthDate(draft.birthDate) !== null &&
  filled(draft.birthTime) &&
  filled(draft.city) &&
  filled(draft.country);

export function choosePlace(draft: BirthDataDraft, place: PlaceView): BirthDataDraft {
  return {
    ...draft,
    city: place.name,
    country: place.countryName,
    coordinates: { latitude: place.latitude, longitude: place.longitude, timezone: place.timezone },
  };
}

/** The profile's name and birth data over the draft; null when the profile holds none of it. */
export function birthDataFromProfile(me: Me, draft: BirthDataDraft): BirthDataDraft | null {
  const found = [
    me.firstName,
    me.lastName,
    me.birthDate,
    me.birthTime,
    me.birthCity,
    me.birthCountry,
  ];
  if (!found.some(Boolean)) return null;
  const placeChanged =
    (me.birthCity && me.birthCity !== draft.city) ||
    (me.birthCountry && me.birthCountry !== draft.country);
  return {
    firstName: me.firstName ?? draft.firstName,
    lastName: me.lastName ?? draft.lastName,
    birthDate: me.birthDate ? partsFromDate(me.birthDate) : draft.birthDate,
    birthTime: me.birthTime ? me.birthTime.slice(0, 5) : draft.birthTime,
    city: me.birthCity ?? draft.city,
    country: me.birthCountry ?? draft.country,
    coordinates: placeChanged ? null : draft.coordinates,
  };
}

/** The request body; call only when complete. */
export function birthDataToRequest(draft: BirthDataDraft): BirthData {
  return {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    birthDate: composeBirthDate(draft.birthDate) ?? '',
    // <input type="time"> may answer HH:MM:SS when seconds are shown; the API wants HH:MM.
    birthTime: draft.birthTime.slice(0, 5),
    city: draft.city.trim(),
    country: draft.country.trim(),
    ...(draft.coordinates ?? {}),
  };
}
