/**
 * The API's credit accounts keep snapshots: after 1,000 events the API's own handler has kept
 * one (in the background), and another replica, cold, starts the account from it and reads only
 * the events after it, deciding on the state a full replay gives.
 */
import { randomUUID } from 'node:crypto';
import { readCountingStore } from '@astra/event-store/testing';
import {
  CREDIT_ACCOUNT_SNAPSHOT_VERSION,
  type CreditEvent,
  creditAccountDecider,
  fold,
  streams,
} from '@astra/ledger';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, systemContext } from '../src/ledger/ledger.ts';
import { startTestServer, type TestServer } from './support.ts';

const spend = () =>
  ({
    type: 'SpendCredits',
    spendId: randomUUID(),
    amount: 1,
    purpose: 'reading',
    description: 'Tarot reading',
    appId: 3,
    readingId: null,
  }) as const;

/** A paid pack of 5,000 credits (Stripe's checkout `cs_1`). */
const packOf5000 = {
  type: 'GrantCredits',
  grantId: 'checkout:cs_1',
  kind: 'purchase',
  amount: 5000,
  reason: 'Credit pack',
  tierId: 2,
  reference: { checkoutSessionId: 'cs_1', paymentIntentId: 'pi_1' },
  payment: { amountMinor: 1799, currency: 'usd' },
} as const;

describe('credit account snapshots in the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('keeps a snapshot of a long account, and a cold replica starts from it', async () => {
    const { ledger, snapshots } = server.deps;
    const id = randomUUID();
    const stream = streams.credits(id);
    // Given an account of 1,002 events, written through the API's own ledger
    await ledger.handle('credits', id, { type: 'OpenAccount', userId: id }, systemContext());
    await ledger.handle(
      'credits',
      id,
      {
        type: 'GrantCredits',
        grantId: 'welcome',
        kind: 'promotional',
        amount: 5000,
        reason: 'Welcome',
        tierId: null,
        reference: null,
      },
      systemContext(),
    );
    for (let i = 0; i < 1000; i++) await ledger.handle('credits', id, spend(), systemContext());
    await ledger.snapshotsSettled();
    const kept = await snapshots.latest(stream, 'credit-account', CREDIT_ACCOUNT_SNAPSHOT_VERSION);
    expect(kept?.revision).toBe(999n);

    // When another replica, cold, takes a command on it
    const { spy, reads } = readCountingStore(ledger.store);
    const replica = new Ledger(spy, { snapshots });
    const result = await replica.handle('credits', id, spend(), systemContext());

    // Then it read the two events after the snapshot, and decided as a full replay would
    expect(reads).toEqual([{ from: 1000n, events: 2 }]);
    const events: CreditEvent[] = [];
    for await (const e of ledger.store.readStream(stream))
      events.push({ type: e.type, data: e.data } as CreditEvent);
    // The purchases of a state from a snapshot are read when first asked: compared as a map.
    expect({ ...result.state, purchases: new Map(result.state.purchases) }).toEqual(
      fold(creditAccountDecider, events),
    );
    expect(result.state.balance).toBe(5000 - 1001);
  }, 120_000);

  it('a snapshot whose purchases cannot be read is reported, and the command is decided on the log', async () => {
    const { ledger, snapshots, db } = server.deps;
    const id = randomUUID();
    const stream = streams.credits(id);
    // Given an account with a paid pack and 1,000 spends, and its snapshot's purchases unreadable
    await ledger.handle('credits', id, { type: 'OpenAccount', userId: id }, systemContext());
    await ledger.handle('credits', id, packOf5000, systemContext());
    for (let i = 0; i < 1000; i++) await ledger.handle('credits', id, spend(), systemContext());
    await ledger.snapshotsSettled();
    await sql`UPDATE snapshots SET state = jsonb_set(state, '{purchases}', '"not JSON"')
      WHERE stream_name = ${stream}`.execute(db);

    // When a cold replica takes a grant of the same id (a redelivered purchase)
    const reported: unknown[] = [];
    const replica = new Ledger(ledger.store, {
      snapshots,
      onSnapshotError: (error) => reported.push(error),
    });
    const again = await replica.handle('credits', id, packOf5000, systemContext());

    // Then the snapshot was reported, and the log itself said the pack was granted already
    expect(reported).toEqual([expect.any(SyntaxError)]);
    expect(again.newEvents).toEqual([]);
    expect(again.state.balance).toBe(5000 - 1000);
    // And the next command on that replica decides on the log's state, reporting nothing more
    await replica.handle('credits', id, spend(), systemContext());
    expect(reported).toHaveLength(1);
  }, 120_000);
});
