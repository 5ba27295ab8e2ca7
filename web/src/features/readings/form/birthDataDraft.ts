import { type BirthData, formatLongDate, type Me, type PlaceView } from '@astra/contracts';
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
  /** The day the place's zone began standard time (YYYY-MM-DD); local mean time before. */
  standardTimeSince: string | null;
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
  /** Imported from a profile whose city nobody found: the person must choose the place. */
  placeNotFound: boolean;
}

export const EMPTY_BIRTH_DATA: BirthDataDraft = {
  firstName: '',
  lastName: '',
  birthDate: EMPTY_BIRTH_DATE,
  birthTime: '',
  city: '',
  country: '',
  coordinates: null,
  placeNotFound: false,
};

const filled = (text: string) => text.trim() !== '';

/** Every field non-blank and the three date parts a real day (spec §5, natal and compatibility). */
export const birthDataIsComplete = (draft: BirthDataDraft): boolean =>
  filled(draft.firstName) &&
  filled(draft.lastName) &&
  composeBirthDate(draft.birthDate) !== null &&
  filled(draft.birthTime) &&
  filled(draft.city) &&
  filled(draft.country) &&
  !draft.placeNotFound;

const coordinatesOf = (place: PlaceView): PlaceCoordinates => ({
  latitude: place.latitude,
  longitude: place.longitude,
  timezone: place.timezone,
  standardTimeSince: place.standardTimeSince,
});

export function choosePlace(draft: BirthDataDraft, place: PlaceView): BirthDataDraft {
  return {
    ...draft,
    city: place.name,
    country: place.countryName,
    coordinates: coordinatesOf(place),
    placeNotFound: false,
  };
}

/** "+00:39:58": a longitude's local mean time (4 minutes of time per degree east). */
function meanTimeOffset(longitude: number): string {
  const seconds = Math.round(Math.abs(longitude) * 240);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${longitude < 0 ? '-' : '+'}${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/**
 * Said on the form when the birth is before the place's zone had standard time: the chart then
 * uses the birthplace's own local mean time (astro.com's rule, docs/readings.md). Null otherwise.
 */
export function localMeanTimeNote(draft: BirthDataDraft): string | null {
  const since = draft.coordinates?.standardTimeSince;
  const date = composeBirthDate(draft.birthDate);
  if (!since || !date || !draft.coordinates) return null;
  if (date >= since) return null;
  const { longitude } = draft.coordinates;
  return `Before ${formatLongDate(since)} this place kept no standard time, so the chart reads your birth time as the local mean time of ${draft.city.trim() || 'the birthplace'} (UTC${meanTimeOffset(longitude)}), as astrologers do.`;
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
  const imported = {
    firstName: me.firstName ?? draft.firstName,
    lastName: me.lastName ?? draft.lastName,
    birthDate: me.birthDate ? partsFromDate(me.birthDate) : draft.birthDate,
    birthTime: me.birthTime ? me.birthTime.slice(0, 5) : draft.birthTime,
  };
  if (me.birthPlace) {
    // The profile's place was found: its coordinates and zone come along.
    return {
      ...imported,
      city: me.birthCity ?? me.birthPlace.name,
      country: me.birthCountry ?? me.birthPlace.countryName,
      coordinates: coordinatesOf(me.birthPlace),
      placeNotFound: false,
    };
  }
  const coordinates = placeChanged ? null : draft.coordinates;
  return {
    ...imported,
    city: me.birthCity ?? draft.city,
    country: me.birthCountry ?? draft.country,
    coordinates,
    // Free text nobody found: the form says so and asks for a choice from the suggestions.
    placeNotFound: Boolean(me.birthCity) && coordinates === null,
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
    ...(draft.coordinates
      ? {
          latitude: draft.coordinates.latitude,
          longitude: draft.coordinates.longitude,
          timezone: draft.coordinates.timezone,
        }
      : {}),
  };
}
