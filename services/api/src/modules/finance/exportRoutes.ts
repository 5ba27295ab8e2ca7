import { pipeline } from 'node:stream/promises';
import {
  type ExportFormat,
  type LedgerExportChecksum,
  ledgerExportQuerySchema,
} from '@astra/contracts';
import {
  type ExportRange,
  exportRangeOf,
  LedgerExport,
  ledgerExportChecksum,
} from '@astra/projections';
import { Router } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { recordAdminAction, recordAdminActionAfter } from '../admin/adminRecords.ts';
import { balanceRoutes } from './balanceRoutes.ts';
import { reportRoutes } from './reportRoutes.ts';

/** The trailer that carries the export body's SHA-256 (hex), after the last byte. */
export const EXPORT_SHA256_TRAILER = 'X-Content-SHA256';

/** The export's query: the format and a half-open range (`from` before `to`), in canonical form. */
export function exportQueryOf(query: unknown): { format: ExportFormat } & ExportRange {
  const parsed = ledgerExportQuerySchema.parse(query);
  return { format: parsed.format, ...exportRangeOf(parsed) };
}

/**
 * The finance routes of the admin panel (unlocked admins): the ledger export and its checksum
 * here, the monthly report (`reportRoutes.ts`) and balances as of an instant (`balanceRoutes.ts`).
 * All of them replay the event log; none reads a read model.
 */
export function exportRoutes(deps: AppDeps) {
  const store = deps.ledger.store;
  const router = Router();
  const admin = [requireUser, requireUnlockedAdmin];

  router.get('/admin/exports/ledger', ...admin, async (req, res) => {
    const query = exportQueryOf(req.query);
    // On record before a byte leaves (no record, no export): a download a crash cuts off is
    // known too. Its end is recorded below, with the checksum.
    await recordAdminAction(deps.ledger, req, {
      type: 'AdminExportStarted',
      data: { format: query.format, from: query.from, to: query.to },
    });
    const exported = new LedgerExport(store, query);
    res.status(200);
    res.setHeader('Content-Type', exported.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${exported.filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    // Chunked, with the body's SHA-256 after it: a body without the trailer did not finish.
    res.setHeader('Trailer', EXPORT_SHA256_TRAILER);
    async function* body() {
      yield* exported;
      res.addTrailers({ [EXPORT_SHA256_TRAILER]: exported.sha256() });
    }
    let complete = false;
    try {
      await pipeline(body, res);
      complete = true;
    } catch (error) {
      // The client went away, or the log could not be read: the response is cut short (no
      // trailer, so the reader can tell), and there is nothing more to answer.
      const clientLeft =
        req.socket.destroyed && (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';
      if (!res.destroyed) res.destroy();
      if (!clientLeft) req.log?.error({ err: error, rows: exported.rows }, 'Ledger export failed');
    }
    // Who downloaded what, once the body ended: its checksum is known only now. A body cut short
    // is recorded too (`complete: false`, no checksum), with what was sent before it stopped.
    await recordAdminActionAfter(deps.ledger, req, {
      type: 'AdminDataExported',
      data: {
        kind: 'ledger',
        format: query.format,
        from: query.from,
        to: query.to,
        complete,
        sha256: complete ? exported.sha256() : null,
        bytes: exported.bytes,
        rows: exported.rows,
      },
    });
  });

  router.get('/admin/exports/ledger/checksum', ...admin, async (req, res) => {
    const query = exportQueryOf(req.query);
    const { sha256, rows, bytes } = await ledgerExportChecksum(store, query);
    const answer: LedgerExportChecksum = {
      format: query.format,
      from: query.from,
      to: query.to,
      sha256,
      rows,
      bytes,
    };
    res.json(answer);
  });

  router.use(reportRoutes(deps));
  router.use(balanceRoutes(deps));
  return router;
}
