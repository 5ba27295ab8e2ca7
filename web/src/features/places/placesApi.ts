import type { PlaceView } from '@astra/contracts';
import { api } from '../../app/api';

export const placesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Type-ahead suggestions for a birthplace; the list never changes, so answers are kept. */
    getPlaces: build.query<PlaceView[], string>({
      query: (q) => ({ url: '/places', params: { q } }),
      transformResponse: (response: { items: PlaceView[] }) => response.items,
      keepUnusedDataFor: 600,
    }),
    /** A place the suggestions lack, by its coordinates: the server names its zone and country. */
    getPlaceAt: build.query<PlaceView, { latitude: number; longitude: number; label: string }>({
      query: ({ latitude, longitude, label }) => ({
        url: '/places/at',
        params: { latitude, longitude, ...(label.trim() ? { label: label.trim() } : {}) },
      }),
      transformResponse: (response: { place: PlaceView }) => response.place,
      keepUnusedDataFor: 600,
    }),
  }),
});

export const { useGetPlacesQuery, useGetPlaceAtQuery } = placesApi;
