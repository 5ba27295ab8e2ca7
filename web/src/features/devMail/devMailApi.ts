import type { DevMailbox, MailPreview } from '@astra/contracts';
import { api } from '../../app/api';

const MAILBOX = 'DevMail' as const;
const PREVIEWS = 'DevMailPreviews' as const;

/**
 * The development mailbox (`/dev/mail`): the outbox's messages and every template with sample
 * data. Both answer 404 in production. Its tags live here, not in the app's API, so nothing of
 * it reaches the bundle of the pages that never open it.
 */
export const devMailApi = api
  .enhanceEndpoints({ addTagTypes: [MAILBOX, PREVIEWS] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** Newest first (the server sorts; the page sorts again, so a list is never shown unsorted). */
      getDevMailbox: build.query<DevMailbox, void>({
        query: () => '/dev/mail',
        providesTags: [MAILBOX],
      }),
      getDevMailPreviews: build.query<{ items: MailPreview[] }, void>({
        query: () => '/dev/mail/previews',
        providesTags: [PREVIEWS],
      }),
    }),
  });

export const { useGetDevMailboxQuery, useGetDevMailPreviewsQuery } = devMailApi;
