import { type Kysely, sql } from 'kysely';

// Frozen: a released migration never changes; later changes are new migrations.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('profiles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('full_name', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('birth_date', 'date')
    .addColumn('birth_time', 'text')
    .addColumn('birth_city', 'text')
    .addColumn('birth_country', 'text')
    .addColumn('language', 'text')
    .addColumn('remaining_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_per_month', 'integer')
    .addColumn('credits_rollover_remaining', 'integer')
    .addColumn('tier_id', 'integer')
    .addColumn('subscription_tier', 'text')
    .addColumn('subscription_type', 'text')
    .addColumn('subscription_status', 'text')
    .addColumn('subscription_id', 'text')
    .addColumn('next_renewal_date', 'date')
    .addColumn('last_credit_refresh_date', 'date')
    .addColumn('subscription_update_date', 'timestamptz')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('cancellation_date', 'timestamptz')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('user_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('credits_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();
  await db.schema.createIndex('profiles_email').on('profiles').column('email').execute();
  await db.schema
    .createIndex('profiles_created_at')
    .on('profiles')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('position', 'bigint', (c) => c.primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('stream_revision', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('credits_after', 'integer', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_role', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reference', 'jsonb')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_user_revision', ['user_id', 'stream_revision'])
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('app_id', 'integer', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('credit_cost_per_execution', 'integer', (c) => c.notNull())
    .addColumn('voice_minutes_included', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('apps')
    .values([
      {
        app_id: 1,
        slug: 'natal-chart',
        app_name: 'Natal Birth Chart',
        credit_cost_per_execution: 24,
        voice_minutes_included: 5,
        description:
          'Your birth chart: the planets, houses and aspects at the moment you were born, read in depth.',
      },
      {
        app_id: 2,
        slug: 'tarot-celtic-cross',
        app_name: 'Tarot Celtic Cross',
        credit_cost_per_execution: 12,
        voice_minutes_included: 5,
        description: 'The classic ten-card spread for a searching look at one question.',
      },
      {
        app_id: 3,
        slug: 'tarot-traditional',
        app_name: 'Tarot Traditional',
        credit_cost_per_execution: 4,
        voice_minutes_included: 3,
        description: 'Three cards for past, present and future around your question.',
      },
      {
        app_id: 4,
        slug: 'compatibility',
        app_name: 'Compatibility Reading',
        credit_cost_per_execution: 8,
        voice_minutes_included: 5,
        description: 'Two birth charts side by side: where you meet, where you differ.',
      },
      {
        app_id: 5,
        slug: 'life-path',
        app_name: 'Life Path Number',
        credit_cost_per_execution: 5,
        voice_minutes_included: 3,
        description: 'Your life path, destiny and soul urge numbers from your name and birth date.',
      },
    ])
    .execute();

  await db.schema
    .createTable('pricing_tiers')
    .addColumn('tier_id', 'integer', (c) => c.primaryKey())
    .addColumn('tier_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('credits_per_month', 'integer', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull())
    .addColumn('popular', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('features', 'jsonb', (c) => c.notNull())
    .execute();
  await db
    .insertInto('pricing_tiers')
    .values([
      {
        tier_id: 1,
        tier_name: 'Starter',
        description: 'Essential guidance for beginners',
        credits_per_month: 60,
        display_order: 1,
        popular: false,
        features: JSON.stringify([
          'All five reading types',
          'Voice guide on every reading',
          'Personal reading library',
          'Unused credits roll over (up to one month)',
        ]),
      },
      {
        tier_id: 2,
        tier_name: 'Explorer',
        description: 'Deeper insights and flexibility',
        credits_per_month: 130,
        display_order: 2,
        popular: false,
        features: JSON.stringify([
          'Everything in Starter',
          'Room for a natal chart every week',
          'Compatibility readings for your circle',
          'Unused credits roll over (up to one month)',
        ]),
      },
      {
        tier_id: 3,
        tier_name: 'Stargazer',
        description: 'Premium access for frequent seekers',
        credits_per_month: 250,
        display_order: 3,
        popular: true,
        features: JSON.stringify([
          'Everything in Explorer',
          'Daily tarot all month long',
          'Celtic Cross whenever you need depth',
          'Best value per credit for regulars',
          'Unused credits roll over (up to one month)',
        ]),
      },
      {
        tier_id: 4,
        tier_name: 'Celestial Pro',
        description: 'Ultimate plan for power seekers',
        credits_per_month: 480,
        display_order: 4,
        popular: false,
        features: JSON.stringify([
          'Everything in Stargazer',
          'Enough credits for every reading type, often',
          'Long voice conversations with reactivations',
          'Lowest price per credit',
          'Unused credits roll over (up to one month)',
        ]),
      },
    ])
    .execute();

  await db.schema
    .createTable('pricing_rows')
    .addColumn('tier_id', 'integer', (c) => c.notNull().references('pricing_tiers.tier_id'))
    .addColumn('billing_type', 'text', (c) =>
      c.notNull().check(sql`billing_type IN ('subscription', 'one_time')`),
    )
    .addColumn('price_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('credits_included', 'integer', (c) => c.notNull())
    .addColumn('provider_price_id', 'text')
    .addPrimaryKeyConstraint('pricing_rows_pk', ['tier_id', 'billing_type'])
    .execute();
  const row = (
    tier_id: number,
    billing_type: string,
    price_minor: number,
    credits_included: number,
  ) => ({
    tier_id,
    billing_type,
    price_minor,
    currency: 'usd',
    credits_included,
  });
  await db
    .insertInto('pricing_rows')
    .values([
      row(1, 'subscription', 999, 60),
      row(2, 'subscription', 1999, 130),
      row(3, 'subscription', 3499, 250),
      row(4, 'subscription', 5999, 480),
      row(1, 'one_time', 799, 40),
      row(2, 'one_time', 1799, 100),
      row(3, 'one_time', 2999, 180),
      row(4, 'one_time', 4999, 320),
    ])
    .execute();

  await db.schema
    .createTable('usage_logs')
    .addColumn('log_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('question', 'text')
    .addColumn('first_name', 'text')
    .addColumn('input_data', 'jsonb', (c) => c.notNull())
    .addColumn('reading_result_id', 'text', (c) => c.notNull())
    .addColumn('reading_result_content', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('credits_charged', 'integer', (c) => c.notNull())
    .addColumn('voice_agent_used', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('voice_reactivation', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('voice_credits_charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('reading_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();
  await db.schema
    .createIndex('usage_logs_user_created')
    .on('usage_logs')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('admin_stats')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('total_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_credits_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_credits_granted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('admin_stats').values({ id: 1 }).execute();
  // The admin-stats projection's own memory of each user, to move its counters exactly once.
  await db.schema
    .createTable('admin_stats_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text')
    .addColumn('user_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('credits_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();

  await db.schema
    .createTable('checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'checkpoints',
    'admin_stats_users',
    'admin_stats',
    'usage_logs',
    'pricing_rows',
    'pricing_tiers',
    'apps',
    'ledger_entries',
    'profiles',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
