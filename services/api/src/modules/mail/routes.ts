import type { DevMailMessage } from '@astra/contracts';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import type { OutboxRow } from '../../reactors/outbox.ts';
import { MAIL_REACTOR } from './mailReactor.ts';
import { sampleMailContents } from './previews.ts';
import { renderMail } from './render.tsx';
import type { StoredMail } from './transport.ts';

/** Messages the development mailbox shows (the newest). */
const MAILBOX_SIZE = 200;

/**
 * The development mailbox (in the spirit of Mailpit): `GET /api/dev/mail`, every message of the
 * outbox, newest first, and `GET /api/dev/mail/previews`, every template with sample data. Not
 * mounted in production: the outbox holds personal data, and only admins see any of it there.
 */
export function devMailRoutes(deps: AppDeps) {
  const router = Router();
  router.get('/dev/mail', async (_req, res) => {
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
  router.get('/dev/mail/previews', async (_req, res) => {
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
  return router;
}

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
