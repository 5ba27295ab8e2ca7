import type { Kysely } from 'kysely';
import { readModels } from './database.ts';

// biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigints
const earliest = (positions: bigint[]) => positions.reduce((min, p) => (p < min ? p : min));

/** The position every named projection has reached in `schema` (0 before the first batch). */
export async function checkpointOf(db: Kysely<unknown>, schema: string, names: readonly string[]) {
  const rows = await readModels(db, schema)
    .selectFrom('checkpoints')
    .selectAll()
    .where('name', 'in', [...names])
    .execute();
  return earliest(names.map((name) => BigInt(rows.find((r) => r.name === name)?.position ?? 0)));
}
