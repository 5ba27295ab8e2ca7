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
  }),
});

export const { useGetPlacesQuery } = placesApi;
