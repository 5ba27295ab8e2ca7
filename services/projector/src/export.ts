import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ledgerExportQuerySchema } from '@astra/contracts';
import { exportRangeOf, LedgerExport } from '@astra/projections';
import { financeTimeZoneOf } from './financeTimeZone.ts';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * `npm run ledger:export -- --format csv|jsonl|journal [--from ISO] [--to ISO] [--time-zone ZONE]
 * [--out FILE]`: the ledger export (one row per credit event whose occurredAt is in [from, to), by
 * replaying the log; the journal's dates are days of the finance time zone, as `ledger:report`
 * takes it), the same bytes as `GET /api/admin/exports/ledger` for the same range. The body goes to stdout, or
 * to FILE with `FILE.sha256` beside it (`sha256sum -c` reads it); stderr gets
 * `<sha256>  <rows> rows  <bytes> bytes  in <seconds> s`. Exits 0, or 2 when it cannot run (a bad argument, no
 * database).
 */
await runCli(async () => {
  const { values } = parseArgs({
    options: {
      format: { type: 'string', default: 'csv' },
      from: { type: 'string' },
      to: { type: 'string' },
      'time-zone': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const parsed = ledgerExportQuerySchema.safeParse({
    format: values.format,
    from: values.from,
    to: values.to,
  });
  if (!parsed.success) {
    throw new Error(
      `Invalid arguments: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const range = exportRangeOf(parsed.data);
  if (range.from !== null && range.to !== null && range.from >= range.to)
    throw new Error('Invalid arguments: --to must be after --from');

  const timeZone = financeTimeZoneOf(values['time-zone']);

  const storage = await openProjectionStorage();
  try {
    const started = performance.now();
    const exported = new LedgerExport(storage.store, {
      format: parsed.data.format,
      ...range,
      timeZone,
    });
    const out = values.out ? createWriteStream(values.out) : process.stdout;
    for await (const chunk of exported) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (values.out) {
      out.end();
      await once(out, 'finish');
      await writeFile(`${values.out}.sha256`, `${exported.sha256()}  ${basename(values.out)}\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    console.error(
      `${exported.sha256()}  ${exported.rows} rows  ${exported.bytes} bytes  in ${seconds.toFixed(1)} s`,
    );
    return 0;
  } finally {
    await storage.close();
  }
});
