import { type DevMailMessage, devMailboxSchema, mailPreviewsSchema } from '@astra/contracts';
import type { AppDeps } from '../../dependencies.ts';
import {
  describedRouter,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import type { OutboxRow } from '../../reactors/outbox.ts';
import { MAIL_REACTOR } from './mailReactor.ts';
import { sampleMailContents } from './previews.ts';
import { renderMail } from './renderLazily.ts';
import type { StoredMail } from './transport.ts';

/** Messages the development mailbox shows (the newest). */
const MAILBOX_SIZE = 200;

const descriptors = {
  devMailbox: {
    method: 'get',
    path: '/api/dev/mail',
    tag: 'System',
    summary:
      'The development mailbox: every message of the outbox, newest first (404 in production)',
    auth: 'none',
    responses: ok(devMailboxSchema),
    errors: [notFoundWhen('NODE_ENV=production')],
    onlyWhen: 'NODE_ENV is not production',
  },
  devMailPreviews: {
    method: 'get',
    path: '/api/dev/mail/previews',
    tag: 'System',
    summary: 'Every e-mail template rendered with sample data (404 in production)',
    auth: 'none',
    responses: ok(mailPreviewsSchema),
    errors: [notFoundWhen('NODE_ENV=production')],
    onlyWhen: 'NODE_ENV is not production',
  },
} satisfies RouteDescriptors;

/**
 * The development mailbox (in the spirit of Mailpit): `GET /api/dev/mail`, every message of the
 * outbox, newest first, and `GET /api/dev/mail/previews`, every template with sample data. Not
 * mounted in production: the outbox holds personal data, and only admins see any of it there.
 */
export const devMailRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  route('devMailbox', async (_req, res) => {
    const rows = (await deps.appDb
      .selectFrom('outbox')
      .selectAll()
      .where('reactor', '=', MAIL_REACTOR)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(MAILBOX_SIZE)
      .execute()) as OutboxRow[];
    res.json({ items: rows.map(devMailMessageOf) });
  });
  route('devMailPreviews', async (_req, res) => {
    const context = {
      recipientName: 'Ada',
      site: deps.mail.settings.site,
      appUrl: deps.mail.settings.appUrl,
    };
    const items = await Promise.all(
      sampleMailContents.map(async (content) => ({
        kind: content.kind,
        ...(await renderMail(content, context)),
      })),
    );
    res.json({ items });
  });
});

const devMailMessageOf = (row: OutboxRow): DevMailMessage => {
  const mail = row.payload as StoredMail | null;
  return {
    id: row.id,
    kind: row.kind as DevMailMessage['kind'],
    to: row.recipient ?? '(erased)',
    subject: mail?.subject ?? '(erased)',
    text: mail?.text ?? '',
    html: mail?.html ?? '',
    messageId: mail?.messageId ?? '',
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  };
};
