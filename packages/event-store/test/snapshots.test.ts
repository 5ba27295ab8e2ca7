import { afterAll, describe, expect, it } from 'vitest';
import { PostgresSnapshotStore } from '../src/index.ts';
import { postgresForTests, sqlEngines } from '../src/testing.ts';

const { engines: databases, closeLater, closeAll } = sqlEngines(await postgresForTests());
afterAll(closeAll);

describe.each(databases)('snapshots on %s', (_name, runs, connect) => {
  it.runIf(runs)(
    'gives the latest snapshot of a fold at its version, up to an instant',
    async () => {
      const connection = await connect();
      closeLater(() => connection.close());
      const snapshots = await PostgresSnapshotStore.open(connection.sql);
      const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
      const snapshot = (revision: number, second: number) => ({
        revision: BigInt(revision),
        position: BigInt(revision) << 20n,
        latestAt: at(second),
        state: { revision },
      });
      expect(await snapshots.latest('s-1', 'fold', 1)).toBeNull();
      // Revisions 9 and 10 compare as numbers, not as text.
      for (const [revision, second] of [
        [9, 10],
        [10, 20],
        [99, 30],
      ] as const)
        await snapshots.save('s-1', 'fold', 1, snapshot(revision, second));
      await snapshots.save('s-1', 'fold', 2, snapshot(500, 5));
      await snapshots.save('s-1', 'other', 1, snapshot(500, 5));
      await snapshots.save('s-2', 'fold', 1, snapshot(500, 5));
      // Kept once: a second save of the same revision changes nothing.
      await snapshots.save('s-1', 'fold', 1, { ...snapshot(99, 30), state: { revision: -1 } });

      expect(await snapshots.latest('s-1', 'fold', 1)).toEqual(snapshot(99, 30));
      expect(await snapshots.latest('s-1', 'fold', 1, { atOrBefore: at(29) })).toEqual(
        snapshot(10, 20),
      );
      expect(await snapshots.latest('s-1', 'fold', 1, { atOrBefore: at(20) })).toEqual(
        snapshot(10, 20),
      );
      expect(await snapshots.latest('s-1', 'fold', 1, { atOrBefore: at(9) })).toBeNull();
      expect(await snapshots.latest('s-1', 'fold', 2)).toEqual(snapshot(500, 5));
      expect(await snapshots.latest('s-3', 'fold', 1)).toBeNull();

      // A snapshot that replaces: the others of its kind and version and those of older versions
      // go; a newer version's, other kinds' and other streams' stay.
      await snapshots.save('s-1', 'fold', 3, snapshot(600, 40));
      await snapshots.save('s-1', 'fold', 2, snapshot(400, 35), { replace: true });
      const { rows } = await connection.sql.query<{ stream: string; kind: string; v: string }>(
        `SELECT stream_name AS stream, kind, version || '@' || revision AS v FROM snapshots
         ORDER BY stream_name, kind, version, revision`,
      );
      expect(rows).toEqual([
        { stream: 's-1', kind: 'fold', v: '2@400' },
        { stream: 's-1', kind: 'fold', v: '3@600' },
        { stream: 's-1', kind: 'other', v: '1@500' },
        { stream: 's-2', kind: 'fold', v: '1@500' },
      ]);
    },
  );
});
