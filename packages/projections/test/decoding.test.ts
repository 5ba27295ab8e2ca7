import { randomUUID } from 'node:crypto';
import { type CreditEvent, EventDecodeError, streamDecoders } from '@astra/contracts';
import { CommandHandler } from '@astra/event-store';
import { eventually } from '@astra/event-store/testing';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  streams,
} from '@astra/ledger';
import { expect, it } from 'vitest';
import { allProjections, LedgerExport, Projector, readModels } from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, metadataAt } from './support.ts';

const grant = (amount: number): CreditCommand => ({
  type: 'GrantCredits',
  grantId: randomUUID(),
  kind: 'promotional',
  amount,
  reason: 'Welcome',
  tierId: null,
  reference: null,
});

onEachDatabase('stored events are decoded', (kind) => {
  const open = freshStorage(kind);

  const history = async () => {
    const storage = await open();
    const { store } = storage;
    const handler = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
      decode: streamDecoders.credits,
    });
    const credit = (userId: string, command: CreditCommand) =>
      handler.handle(
        streams.credits(userId),
        (s) => creditAccountDecider.decide(command, s),
        metadataAt(new Date('2026-11-24T10:00:00Z')),
      );
    const before = randomUUID();
    await credit(before, { type: 'OpenAccount', userId: before });
    // Old history: a role change of schema version 1, without `source` (read by its upcast).
    await store.append(
      streams.user(before),
      [
        {
          type: 'UserRoleChanged',
          data: { role: 'admin' },
          metadata: { ...metadataAt(new Date('2026-11-24T10:00:00Z')), schemaVersion: 1 },
        },
      ],
      { expected: 'no_stream' },
    );
    // Another writer's stream (not the app's): no projection reads it, it stops nothing.
    await store.append('tally-1', [{ type: 'Counted', data: {} }], { expected: 'no_stream' });
    const { position: lastGood, revision } = await credit(before, grant(10));
    // A grant its schema refuses (a negative amount), as a bad writer could have appended it.
    const broken = await store.append(
      streams.credits(before),
      [
        {
          type: 'CreditsGranted',
          data: { grantId: 'g-bad', kind: 'promotional', amount: -5, reason: 'x', tierId: null },
          metadata: metadataAt(new Date('2026-11-24T10:00:00Z')),
        },
      ],
      { expected: revision! },
    );
    const after = randomUUID();
    await credit(after, { type: 'OpenAccount', userId: after });
    await credit(after, grant(20));
    return {
      ...storage,
      before,
      after,
      lastGood: lastGood!,
      badPosition: broken.position,
      badRevision: broken.nextRevision,
    };
  };

  const checkpointsOf = async (db: Awaited<ReturnType<typeof history>>['db']) =>
    new Map(
      (await readModels(db).selectFrom('checkpoints').selectAll().execute()).map((row) => [
        row.name,
        BigInt(row.position),
      ]),
    );

  it('stops the projector before an event that does not decode: everything before it applied, nothing after, the position named', async () => {
    const { store, db, before, after, lastGood, badPosition, badRevision } = await history();
    const lines: string[] = [];
    const errors: unknown[] = [];
    const logger = { info: () => {}, error: (_: object, message: string) => lines.push(message) };
    const projector = new Projector(store, db, allProjections, {
      logger,
      onError: (error) => errors.push(error),
      batchSize: 100,
    });
    projector.start();
    try {
      const stoppedBy = await eventually(async () => projector.stoppedBy);
      expect(stoppedBy).toBeInstanceOf(EventDecodeError);
      expect(stoppedBy).toMatchObject({
        position: badPosition,
        stream: streams.credits(before),
        revision: badRevision,
        type: 'CreditsGranted',
      });
      expect(stoppedBy.message).toContain(`at position ${badPosition}`);
      expect(stoppedBy.message).toContain('amount');
      expect(projector.running).toBe(false);
      expect(lines.join('\n')).toContain(`Projector stopped before position ${badPosition}`);
      // Not retried as if it were a passing failure of the database.
      expect(errors).toEqual([]);
      for (const status of projector.status()) {
        expect(status).toMatchObject({ state: 'failed', position: lastGood });
        expect(status.error).toContain(`at position ${badPosition}`);
      }

      // Recorded where the health route (in any process) reads failures.
      const failures = await readModels(db)
        .selectFrom('projection_failures')
        .select(['name', 'error'])
        .execute();
      expect(failures.map((f) => f.name).sort()).toEqual(allProjections.map((p) => p.name).sort());
      for (const failure of failures) expect(failure.error).toContain(`at position ${badPosition}`);

      // Every projection's checkpoint is right before it; nothing after it is applied.
      const checkpoints = await checkpointsOf(db);
      for (const { name } of allProjections) {
        expect(checkpoints.get(name) ?? 0n, name).toBeLessThanOrEqual(lastGood);
      }
      expect(checkpoints.get('profiles')).toBe(lastGood);
      expect(checkpoints.get('ledger_entries')).toBe(lastGood);
      const profiles = await readModels(db)
        .selectFrom('profiles')
        .select(['id', 'remaining_credits', 'role'])
        .where('id', 'in', [before, after])
        .execute();
      // The version 1 role change is read by its upcast; the later account is not there.
      expect(profiles).toEqual([{ id: before, remaining_credits: 10, role: 'admin' }]);
      expect(
        await readModels(db)
          .selectFrom('ledger_entries')
          .select('position')
          .where('position', '>=', String(badPosition))
          .execute(),
      ).toEqual([]);
    } finally {
      await projector.stop();
    }

    // A projector started again (a restart without a fix) stops at the same event: never skipped.
    const again = new Projector(store, db, allProjections, { logger });
    await expect(again.catchUp()).rejects.toThrow(`at position ${badPosition}`);
    expect((await checkpointsOf(db)).get('profiles')).toBe(lastGood);
  });

  it('fails a command on its stream, and a replay of the log (the export), naming its position', async () => {
    const { store, before, badPosition } = await history();
    // A handler without the stream cached reads it whole: the write side never decides on it.
    const handler = new CommandHandler<CreditAccount, CreditEvent>(store, creditAccountDecider, {
      decode: streamDecoders.credits,
    });
    await expect(
      handler.handle(
        streams.credits(before),
        (s) => creditAccountDecider.decide(grant(1), s),
        metadataAt(new Date('2026-11-24T11:00:00Z')),
      ),
    ).rejects.toThrow(
      new RegExp(`^Cannot decode event CreditsGranted at position ${badPosition} `),
    );
    const read = async () => {
      for await (const _chunk of new LedgerExport(store, {
        format: 'jsonl',
        from: null,
        to: null,
      })) {
        // read to the end
      }
    };
    await expect(read()).rejects.toThrow(
      new RegExp(`Cannot decode event CreditsGranted at position ${badPosition} `),
    );
  });
});
