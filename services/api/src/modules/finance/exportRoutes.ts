import { pipeline } from 'node:stream/promises';
import {
  type ExportFormat,
  type LedgerExportChecksum,
  ledgerExportChecksumSchema,
  ledgerExportQuerySchema,
} from '@astra/contracts';
import {
  type ExportRange,
  exportRangeOf,
  LedgerExport,
  ledgerExportChecksum,
} from '@astra/projections';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import {
  badQuery,
  describedRouter,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { recordAdminAction, recordAdminActionAfter } from '../admin/adminRecords.ts';

/** The trailer that carries the export body's SHA-256 (hex), after the last byte. */
export const EXPORT_SHA256_TRAILER = 'X-Content-SHA256';

/**
 * The header that names the finance calendar's time zone (`FINANCE_TIME_ZONE`): the rows' times
 * are UTC instants, and the month report's months are this zone's.
 */
export const FINANCE_TIME_ZONE_HEADER = 'X-Finance-Time-Zone';

/** The export's query: the format and a half-open range (`from` before `to`), in canonical form. */
export function exportQueryOf(query: unknown): { format: ExportFormat } & ExportRange {
  const parsed = ledgerExportQuerySchema.parse(query);
  return { format: parsed.format, ...exportRangeOf(parsed) };
}

const descriptors = {
  adminLedgerExport: {
    method: 'get',
    path: '/api/admin/exports/ledger',
    tag: 'Admin',
    summary:
      'One row per credit event in log order (CSV or JSON lines), streamed from the log; the body’s SHA-256 follows in the `X-Content-SHA256` trailer',
    auth: 'unlocked_admin',
    query: ledgerExportQuerySchema,
    responses: {
      200: {
        description: 'The export (text/csv or application/x-ndjson)',
        contentType: 'text/csv',
      },
    },
    readsLog: true,
    errors: [badQuery('A bad format or range')],
  },
  adminLedgerExportChecksum: {
    method: 'get',
    path: '/api/admin/exports/ledger/checksum',
    tag: 'Admin',
    summary: 'The SHA-256, rows and bytes of the export of the same range, without the body',
    auth: 'unlocked_admin',
    query: ledgerExportQuerySchema,
    responses: ok(ledgerExportChecksumSchema),
    readsLog: true,
    errors: [badQuery('A bad format or range')],
  },
} satisfies RouteDescriptors;

/**
 * The finance routes of the admin panel (unlocked admins): the ledger export and its checksum
 * here, the monthly report (`reportRoutes.ts`) and balances as of an instant (`balanceRoutes.ts`).
 * All of them replay the event log; none reads a read model.
 */
export const exportRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const store = deps.ledger.store;
  const admin = [requireUser, requireUnlockedAdmin];

  route('adminLedgerExport', ...admin, async (req, res) => {
    const query = exportQueryOf(req.query);
    // On record before a byte leaves (no record, no export): a download a crash cuts off is
    // known too. Its end is recorded below, with the checksum.
    await recordAdminAction(deps.ledger, req, {
      type: 'AdminExportStarted',
      data: { format: query.format, from: query.from, to: query.to },
    });
    const exported = new LedgerExport(store, {
      ...query,
      timeZone: deps.config.FINANCE_TIME_ZONE,
    });
    res.status(200);
    res.setHeader('Content-Type', exported.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${exported.filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(FINANCE_TIME_ZONE_HEADER, deps.config.FINANCE_TIME_ZONE);
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

  route('adminLedgerExportChecksum', ...admin, async (req, res) => {
    const query = exportQueryOf(req.query);
    const { sha256, rows, bytes } = await ledgerExportChecksum(store, {
      ...query,
      timeZone: deps.config.FINANCE_TIME_ZONE,
    });
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
});
