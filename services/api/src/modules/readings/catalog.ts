import { priceAt, type ReadingKindRecord } from '@astra/contracts';
import type { ReadDb } from '@astra/projections';
import type { ReadingKindEngine } from './kinds.ts';

/**
 * The catalogue port: the reading kinds this server sells and what each costs when. Commands take
 * their price from it (never from a read model); `read.apps` is its projection (`projectApps`).
 */
export interface Catalog {
  readonly kinds: readonly ReadingKindEngine[];
  readonly records: readonly ReadingKindRecord[];
  kind(slug: string): ReadingKindEngine | undefined;
  byAppId(appId: number): ReadingKindEngine | undefined;
  /** Credits a reading of this kind costs at this instant. */
  priceOf(slug: string, at: Date): number;
}

/** The catalogue of these kinds; refuses two kinds with one slug or one app id. */
export function catalogOf(given: readonly ReadingKindEngine[]): Catalog {
  // In app-id order, as `GET /api/apps` lists them.
  const kinds = [...given].sort((a, b) => a.record.appId - b.record.appId);
  const bySlug = new Map(kinds.map((kind) => [kind.record.slug, kind]));
  const byApp = new Map(kinds.map((kind) => [kind.record.appId, kind]));
  if (bySlug.size !== kinds.length || byApp.size !== kinds.length)
    throw new Error('Two reading kinds share a slug or an app id');
  const kind = (slug: string) => bySlug.get(slug);
  return {
    kinds,
    records: kinds.map((each) => each.record),
    kind,
    byAppId: (appId) => byApp.get(appId),
    priceOf: (slug, at) => {
      const found = kind(slug);
      if (!found) throw new Error(`No reading kind ${slug}`);
      return priceAt(found.record, at);
    },
  };
}

/**
 * `read.apps` as the catalogue says at `now`: a row per kind (its price then), upserted, and rows
 * of kinds no longer sold left as they are (readings keep their app ids). Run at every start.
 */
export async function projectApps(read: ReadDb, catalog: Catalog, now: Date) {
  if (catalog.kinds.length === 0) return;
  await read
    .insertInto('apps')
    .values(
      catalog.records.map((record) => ({
        app_id: record.appId,
        slug: record.slug,
        app_name: record.name,
        description: record.description,
        credit_cost_per_execution: priceAt(record, now),
        voice_minutes_included: record.voiceMinutes,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('app_id').doUpdateSet((row) => ({
        slug: row.ref('excluded.slug'),
        app_name: row.ref('excluded.app_name'),
        description: row.ref('excluded.description'),
        credit_cost_per_execution: row.ref('excluded.credit_cost_per_execution'),
        voice_minutes_included: row.ref('excluded.voice_minutes_included'),
      })),
    )
    .execute();
}
