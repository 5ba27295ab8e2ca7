import { expect, it } from 'vitest';
import {
  allProjections,
  Projector,
  profilesProjection,
  readModels,
  verifyLedger,
} from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, randomHistory } from './support.ts';

onEachDatabase('ledger:verify', (kind) => {
  const open = freshStorage(kind);

  it('finds the read models equal to a replay of a randomized history of 10,000 commands, and names every tampered row', async () => {
    const storage = await open();
    const { store, db } = storage;
    const history = await randomHistory(store, { commands: 10_000, users: 60, seed: 2026 });
    expect(history.applied).toBeGreaterThan(4000);
    expect(history.refused).toBeGreaterThan(100); // overdrafts and bad input were refused, not written
    await new Projector(store, db, allProjections, { batchSize: 500 }).catchUp();

    const clean = await verifyLedger(store, db);
    expect(clean.differences).toEqual([]);
    expect(clean.accounts).toBe(60);
    expect(clean.events).toBeGreaterThan(4000);

    const read = readModels(db);
    const victim = history.users[3]!;
    await read
      .updateTable('profiles')
      .set((eb) => ({ remaining_credits: eb('remaining_credits', '+', 1) }))
      .where('id', '=', victim)
      .execute();
    const entry = await read
      .selectFrom('ledger_entries')
      .select('event_id')
      .where('user_id', '=', history.users[5]!)
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    await read
      .updateTable('ledger_entries')
      .set({ balance_after: -1 })
      .where('event_id', '=', entry.event_id)
      .execute();
    const removed = await read
      .selectFrom('ledger_entries')
      .select('event_id')
      .where('user_id', '=', history.users[7]!)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    await read.deleteFrom('ledger_entries').where('event_id', '=', removed.event_id).execute();

    const tampered = await verifyLedger(store, db);
    expect(tampered.differences).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`profile ${victim}: remaining_credits`),
        expect.stringContaining(`ledger entry ${entry.event_id}: balanceAfter -1`),
        expect.stringContaining(`ledger entry ${removed.event_id}`),
      ]),
    );
    expect(tampered.differences).toHaveLength(3);
  }, 180_000);

  it('compares each table as of its own checkpoint when projectors run apart', async () => {
    const storage = await open();
    const { store, db } = storage;
    await randomHistory(store, { commands: 300, users: 6, seed: 3 });
    await new Projector(store, db, allProjections).catchUp();
    await randomHistory(store, { commands: 200, users: 6, seed: 4 });
    // Only the profiles move on; ledger_entries stays at the older checkpoint.
    await new Projector(store, db, [profilesProjection]).catchUp();
    const report = await verifyLedger(store, db, { lagGraceMs: 0 });
    expect(report.differences).toEqual([]);
    // The tables agree as of their checkpoints, and the ones left behind are named.
    expect(report.behind.map((b) => b.name)).toEqual([
      'ledger_entries',
      'admin_stats',
      'feedback',
      'usage_logs',
    ]);
  }, 120_000);
});
