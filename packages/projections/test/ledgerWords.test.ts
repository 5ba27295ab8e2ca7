/**
 * Ledger entries keep codes and parameters, and are named by the one label module of
 * `@astra/contracts`: a promotional grant that names its campaign in its reference is
 * promotional credits of that campaign, never a credit pack purchase.
 */
import { randomUUID } from 'node:crypto';
import {
  type CreditEvent,
  ledgerEntryDescription,
  ledgerEntryLabel,
  streamDecoders,
} from '@astra/contracts';
import { CommandHandler } from '@astra/event-store';
import {
  type CreditAccount,
  type CreditCommand,
  creditAccountDecider,
  streams,
} from '@astra/ledger';
import { Migrator, sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  allProjections,
  migrateReadModels,
  Projector,
  READ_MODEL_MIGRATIONS,
  READ_SCHEMA,
  readModels,
} from '../src/index.ts';
import { onEachDatabase } from './databases.ts';
import { freshStorage, metadataAt } from './support.ts';

onEachDatabase('ledger entry words', (kind) => {
  const open = freshStorage(kind);

  const history = async () => {
    const storage = await open();
    const userId = randomUUID();
    const credits = new CommandHandler<CreditAccount, CreditEvent>(
      storage.store,
      creditAccountDecider,
      { decode: streamDecoders.credits },
    );
    const credit = (command: CreditCommand) =>
      credits.handle(
        streams.credits(userId),
        (s) => creditAccountDecider.decide(command, s),
        metadataAt(new Date('2026-11-29T10:00:00Z')),
      );
    await credit({ type: 'OpenAccount', userId });
    await credit({
      type: 'GrantCredits',
      grantId: 'promo-spring-2026',
      kind: 'promotional',
      amount: 25,
      reason: 'Spring offer',
      tierId: null,
      reference: { campaignId: 'spring-2026' },
    });
    await credit({
      type: 'GrantCredits',
      grantId: 'checkout:cs_1',
      kind: 'purchase',
      amount: 100,
      reason: 'Explorer credit pack',
      tierId: 2,
      reference: { checkoutSessionId: 'cs_1' },
    });
    const entries = () =>
      readModels(storage.db)
        .selectFrom('ledger_entries')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('stream_revision')
        .execute();
    return { ...storage, userId, entries };
  };

  it('names a promotional grant by its campaign and a paid one as a pack purchase', async () => {
    const { store, db, entries } = await history();
    await new Projector(store, db, allProjections).catchUp();
    const rows = (await entries()).filter((row) => row.type === 'CreditsGranted');

    // Stored: codes and parameters, the granter's own words as a parameter.
    expect(rows.map((row) => [row.kind, row.details])).toEqual([
      ['grant', { grantKind: 'promotional', campaign: 'spring-2026', note: 'Spring offer' }],
      ['grant', { grantKind: 'purchase', note: 'Explorer credit pack' }],
    ]);
    const [promotional, purchase] = rows;
    expect(ledgerEntryLabel(promotional!)).toBe('Promotional credits: spring-2026');
    expect(ledgerEntryLabel(promotional!, 'staff')).toBe('Promotional credits: spring-2026');
    expect(ledgerEntryDescription(promotional!)).toBe('Spring offer');
    expect(ledgerEntryLabel(purchase!)).toBe('Credit pack purchase');
  });

  it('replays the ledger entries of a read model projected before codes, with the same rows', async () => {
    const { store, db, userId, entries } = await history();
    await new Projector(store, db, allProjections).catchUp();
    const projected = await entries();
    const migrator = new Migrator({
      db: db.withSchema(READ_SCHEMA),
      provider: { getMigrations: async () => READ_MODEL_MIGRATIONS },
      migrationTableSchema: READ_SCHEMA,
    });
    // Given the read model as it was before: a sentence in `reason`, its checkpoint at the head
    const before = await migrator.migrateTo('2026_11_29_014_profile_birth_time_unknown');
    expect(before.error).toBeUndefined();
    const { position, stream_revision, event_id, occurred_at } = projected[0]!;
    await sql`INSERT INTO ${sql.table(`${READ_SCHEMA}.ledger_entries`)}
      (position, event_id, user_id, stream_revision, type, amount, balance_after, credits_after,
       actor_kind, reason, occurred_at)
      VALUES (${position}, ${event_id}, ${userId}, ${stream_revision}, 'CreditAccountOpened',
       0, 0, 0, 'system', 'Credit account opened', ${occurred_at})`.execute(db);
    await sql`INSERT INTO ${sql.table(`${READ_SCHEMA}.checkpoints`)} (name, position)
      VALUES ('ledger_entries', ${projected.at(-1)!.position})`.execute(db);

    // When it is migrated, the projection starts again from the first event
    await migrateReadModels(db, READ_SCHEMA);
    expect(await entries()).toEqual([]);
    await new Projector(store, db, allProjections).catchUp();

    // Then every entry is back, with its kind and parameters
    expect(await entries()).toEqual(projected);
  });
});
