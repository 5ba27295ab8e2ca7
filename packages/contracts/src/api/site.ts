import { z } from 'zod';

/**
 * `GET /api/site`: the operator's details for the Impressum, the support address and the social
 * links, from the server's configuration (`OPERATOR_*`, `SUPPORT_EMAIL`, `SOCIAL_LINKS`).
 */
export const siteInfoSchema = z.object({
  operator: z.object({
    name: z.string(),
    /** Lines of the postal address. */
    address: z.array(z.string()),
    email: z.string(),
    representative: z.string().nullable(),
    register: z.string().nullable(),
    vatId: z.string().nullable(),
  }),
  supportEmail: z.string(),
  socialLinks: z.array(z.object({ label: z.string(), url: z.string() })),
  /** The development defaults stand in for the operator's details (never in production). */
  developmentDefaults: z.boolean(),
  /**
   * Where the product's e-mails go: `smtp`, to the person's address; `development_mailbox`,
   * nowhere off this machine (no `SMTP_URL`): they are kept for the mailbox at /dev/mail.
   */
  mail: z.enum(['smtp', 'development_mailbox']),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;
