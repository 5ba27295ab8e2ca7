import {
  type BirthData,
  formatLongDate,
  type Me,
  type PlaceView,
  UNKNOWN_BIRTH_TIME_NOON,
} from '@astra/contracts';
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
  /**
   * Typed as coordinates (a place the suggestions lack): the server found this zone, shown to
   * the person, and finds it again from the coordinates when the reading is bought.
   */
  entered?: boolean;
}

/** The coordinates form, as typed (a place the suggestions lack). */
export interface EnteredCoordinates {
  latitude: string;
  longitude: string;
  /** The place's name, optional. */
  label: string;
}

export const EMPTY_COORDINATES: EnteredCoordinates = { latitude: '', longitude: '', label: '' };

/** One person's birth data as form state (natal chart, and each person of a compatibility). */
export interface BirthDataDraft {
  firstName: string;
  lastName: string;
  birthDate: BirthDateParts;
  birthTime: string;
  /** "I don't know my birth time": the chart is drawn for noon, without houses. */
  timeUnknown: boolean;
  city: string;
  country: string;
  coordinates: PlaceCoordinates | null;
  /** The birthplace typed as coordinates instead of chosen from the suggestions; else null. */
  entered: EnteredCoordinates | null;
  /** Imported from a profile whose city nobody found: the person must choose the place. */
  placeNotFound: boolean;
}

export const EMPTY_BIRTH_DATA: BirthDataDraft = {
  firstName: '',
  lastName: '',
  birthDate: EMPTY_BIRTH_DATE,
  birthTime: '',
  timeUnknown: false,
  city: '',
  country: '',
  coordinates: null,
  entered: null,
  placeNotFound: false,
};

/** Whether text is a decimal number of degrees ('47.5957', '-9.3'). */
const DECIMAL = /^[-+]?\d{1,3}(\.\d+)?$/;

/**
 * What is wrong with typed coordinates, per field (empty when they are usable), in the words
 * the server uses too.
 */
export function coordinateErrors(entered: EnteredCoordinates): {
  latitude?: string;
  longitude?: string;
} {
  const check = (text: string, max: number, example: string, positive: string) => {
    const value = text.trim();
    if (!value) return undefined;
    if (!DECIMAL.test(value)) return `Must be a decimal number of degrees, e.g. ${example}`;
    return Math.abs(Number(value)) > max
      ? `Must be between -${max} and ${max} (decimal degrees, ${positive} positive)`
      : undefined;
  };
  const errors: { latitude?: string; longitude?: string } = {};
  const latitude = check(entered.latitude, 90, '47.5957', 'north');
  const longitude = check(entered.longitude, 180, '9.3257', 'east');
  if (latitude) errors.latitude = latitude;
  if (longitude) errors.longitude = longitude;
  return errors;
}

/** Typed coordinates as numbers, or null while either is missing or wrong. */
export function parsedCoordinates(
  entered: EnteredCoordinates | null,
): { latitude: number; longitude: number } | null {
  if (!entered?.latitude.trim() || !entered.longitude.trim()) return null;
  if (Object.keys(coordinateErrors(entered)).length > 0) return null;
  return { latitude: Number(entered.latitude), longitude: Number(entered.longitude) };
}

/** The place the server found at typed coordinates: the draft takes its name, country and zone. */
export function chooseEnteredPlace(draft: BirthDataDraft, place: PlaceView | null): BirthDataDraft {
  if (!place) return { ...draft, city: '', country: '', coordinates: null };
  return {
    ...draft,
    city: place.name,
    country: place.countryName,
    coordinates: { ...coordinatesOf(place), entered: true },
    placeNotFound: false,
  };
}

const filled = (text: string) => text.trim() !== '';

/** Every field non-blank and the three date parts a real day (spec §5, natal and compatibility). */
export const birthDataIsComplete = (draft: BirthDataDraft): boolean =>
  filled(draft.firstName) &&
  filled(draft.lastName) &&
  composeBirthDate(draft.birthDate) !== null &&
  (draft.timeUnknown || filled(draft.birthTime)) &&
  (draft.entered === null || draft.coordinates?.entered === true) &&
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
    entered: null,
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
    timeUnknown: me.birthTime ? false : me.birthTimeUnknown || draft.timeUnknown,
    entered: null,
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
  const place = draft.coordinates;
  return {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    birthDate: composeBirthDate(draft.birthDate) ?? '',
    // <input type="time"> may answer HH:MM:SS when seconds are shown; the API wants HH:MM.
    ...(draft.timeUnknown ? { timeUnknown: true } : { birthTime: draft.birthTime.slice(0, 5) }),
    city: draft.city.trim(),
    country: draft.country.trim(),
    ...(place
      ? {
          latitude: place.latitude,
          longitude: place.longitude,
          // Typed coordinates go without a zone: the server finds it there, as it showed it.
          ...(place.entered ? {} : { timezone: place.timezone }),
        }
      : {}),
  };
}

/** Said on the forms when the birth time is unknown: what the chart leaves out, and why. */
export const UNKNOWN_TIME_NOTE = `Without a birth time the chart is drawn for ${UNKNOWN_BIRTH_TIME_NOON} noon local time. It has no rising sign (Ascendant), Midheaven or houses, which depend on the exact time, and the Moon, which moves 12–15° a day, may be in another sign than shown.`;
