import type {
  celticCrossRequestSchema,
  compatibilityRequestSchema,
  lifePathRequestSchema,
  natalChartRequestSchema,
  ReadingCreated,
  ReadingView,
  tarotTraditionalRequestSchema,
} from '@astra/contracts';
import { api, READING_CREATED_TAGS } from '../../app/api';

type Body<Schema extends { parse: (input: unknown) => unknown }> = ReturnType<Schema['parse']>;

/** One POST /api/readings/{kind} per reading; the body is the contract's request schema. */
export type ReadingRequest =
  | { kind: 'natal-chart'; body: Body<typeof natalChartRequestSchema> }
  | { kind: 'tarot-traditional'; body: Body<typeof tarotTraditionalRequestSchema> }
  | { kind: 'tarot-celtic-cross'; body: Body<typeof celticCrossRequestSchema> }
  | { kind: 'compatibility'; body: Body<typeof compatibilityRequestSchema> }
  | { kind: 'life-path'; body: Body<typeof lifePathRequestSchema> };

export const readingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Spends the app's credits: the badge, the history and the library all change. */
    createReading: build.mutation<ReadingCreated, ReadingRequest>({
      query: ({ kind, body }) => ({ url: `/readings/${kind}`, method: 'POST', body }),
      invalidatesTags: [...READING_CREATED_TAGS],
    }),
    /** A saved reading is never edited, so the cached copy holds until it is deleted. */
    getReading: build.query<ReadingView, string>({
      query: (readingId) => `/readings/${encodeURIComponent(readingId)}`,
      providesTags: (_result, _error, readingId) => [{ type: 'Reading', id: readingId }],
    }),
  }),
});

export const { useCreateReadingMutation, useGetReadingQuery } = readingsApi;
