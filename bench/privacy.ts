import { randomUUID } from 'node:crypto';
import { personalData, SCHEMA_VERSION } from '@astra/contracts';
import { type NewEvent, openStorage, type Storage } from '@astra/event-store';
import { createThrowawayDatabase } from '@astra/event-store/testing';
import { streams } from '@astra/ledger';
import {
  databaseFor,
  LedgerExport,
  migrateReadModels,
  READ_SCHEMA,
  rebuildReadModels,
} from '@astra/projections';
import { writeSection } from './report.ts';

const USERS = Number(process.env.BENCH_PRIVACY_USERS ?? 2_000);
const READINGS_PER_USER = 10;
const ROUNDS = 5;
const SECRET = 'bench-data-key-secret-of-at-least-32-chars';

const WORDS =
  'the star speaks of renewal after a long night tower behind it asks what must fall first moon sun your path heart choice patience courage card reversed upright future past present shadow light trust change friend work home journey quiet storm fire water earth air gift lesson open door season slowly clear'.split(
    ' ',
  );

/**
 * A reading's text about as long as the offline writer's (three cards, ~1,900 characters): words
 * drawn at random, so that it compresses in the database about as prose does, not as a repeat.
 */
function readingText(seed: number) {
  let state = (seed * 2_654_435_761) >>> 0 || 1;
  let text = '';
  while (text.length < 1_900) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    text += `${WORDS[(state >>> 0) % WORDS.length]} `;
  }
  return text.trimEnd();
}

/** One user's streams, each an append of its events, in the order the app would write them. */
function userAppends(index: number) {
  const userId = randomUUID();
  let clock = Date.UTC(2026, 0, 1) + index * 60_000;
  const metadata = (extra: Record<string, unknown> = {}) => {
    clock += 1_000;
    return {
      occurredAt: new Date(clock).toISOString(),
      actor: { kind: 'user', userId, role: 'user' },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: SCHEMA_VERSION,
      ...extra,
    };
  };
  const appends: { stream: string; events: NewEvent[] }[] = [];
  appends.push({
    stream: streams.user(userId),
    events: [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: `member${index}@example.com`,
          fullName: `Member Number${index}`,
          firstName: 'Member',
          lastName: `Number${index}`,
          avatarUrl: null,
          provider: 'dev',
        },
        metadata: metadata(),
      },
      {
        type: 'UserProfileUpdated',
        data: {
          birthDate: '1990-05-17',
          birthTime: '07:45',
          birthCity: 'Lisbon',
          birthCountry: 'Portugal',
        },
        metadata: metadata(),
      },
    ],
  });
  const credits: NewEvent[] = [
    { type: 'CreditAccountOpened', data: { userId }, metadata: metadata() },
    { type: 'FreeCreditsGranted', data: { amount: 10 }, metadata: metadata() },
  ];
  for (let r = 0; r < READINGS_PER_USER; r++) {
    if (r % 5 === 0) {
      credits.push({
        type: 'CreditsGranted',
        data: {
          grantId: `checkout:cs_${randomUUID()}`,
          kind: 'purchase',
          amount: 100,
          reason: 'Explorer credit pack',
          tierId: 2,
          reference: {
            checkoutSessionId: `cs_${randomUUID()}`,
            paymentIntentId: `pi_${randomUUID()}`,
          },
          payment: { amountMinor: 1799, currency: 'usd' },
        },
        metadata: metadata(),
      });
    }
    const readingId = randomUUID();
    const spendId = randomUUID();
    appends.push({
      stream: streams.reading(readingId),
      events: [
        {
          type: 'ReadingRequested',
          data: {
            readingId,
            userId,
            appId: 3,
            appName: 'Tarot Traditional',
            input: { spread: 'three-card', question: `Will my plan number ${r} work out?` },
            firstName: 'Member',
            question: `Will my plan number ${r} work out?`,
            creditsCharged: 8,
            spendId,
          },
          metadata: metadata({ subject: userId }),
        },
        {
          type: 'ReadingGenerated',
          data: {
            result: {
              cards: [
                { name: 'The Star', position: 'past', reversed: false },
                { name: 'The Tower', position: 'present', reversed: true },
                { name: 'The Sun', position: 'future', reversed: false },
              ],
              readingText: readingText(index * READINGS_PER_USER + r + 1),
            },
            writer: 'offline',
          },
          metadata: metadata({ subject: userId }),
        },
      ],
    });
    credits.push(
      {
        type: 'CreditsSpent',
        data: {
          spendId,
          amount: 8,
          purpose: 'reading',
          description: 'Tarot Traditional',
          appId: 3,
          readingId,
        },
        metadata: metadata(),
      },
      {
        type: 'CreditsSpent',
        data: {
          spendId: randomUUID(),
          amount: 5,
          purpose: 'voice_reactivation',
          description: 'Voice guide reactivated',
          appId: 3,
          readingId: null,
        },
        metadata: metadata(),
      },
    );
  }
  appends.push({ stream: streams.credits(userId), events: credits });
  if (index % 10 === 0) {
    const feedbackId = randomUUID();
    appends.push({
      stream: streams.feedback(feedbackId),
      events: [
        {
          type: 'FeedbackSubmitted',
          data: { feedbackId, userId, message: `The reading of member ${index} was spot on.` },
          metadata: metadata(),
        },
      ],
    });
  }
  return appends;
}

/** Writes the same events into both logs: sealed into one, as given into the other. */
async function seed(encrypted: Storage, plain: Storage) {
  let next = 0;
  let events = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < USERS) {
        for (const { stream, events: batch } of userAppends(next++)) {
          await encrypted.store.append(stream, batch, { expected: 'no_stream' });
          await plain.store.append(stream, batch, { expected: 'no_stream' });
          events += batch.length;
        }
      }
    }),
  );
  return events;
}

interface Timings {
  readAll: number;
  /** `readAll` again in the same process: every key cached. */
  readAllWarm: number;
  rebuild: number;
  exported: number;
}

/** One figure, on storage opened anew (as a new process: no data key cached yet). */
async function timed(
  open: () => Promise<Storage>,
  work: (storage: Storage, db: ReturnType<typeof databaseFor>) => Promise<unknown>,
) {
  const storage = await open();
  const db = databaseFor(storage.connection);
  try {
    // The previous figure's writes flushed now, not during this one.
    await storage.connection.sql.exec('CHECKPOINT');
    const started = performance.now();
    await work(storage, db);
    return performance.now() - started;
  } finally {
    await db.destroy();
    await storage.close();
  }
}

/** `readAll` from a fresh process's state, then again with every key cached. */
async function readTwice(open: () => Promise<Storage>) {
  const times: number[] = [];
  await timed(open, async ({ store }) => {
    for (let pass = 0; pass < 2; pass++) {
      const started = performance.now();
      for await (const _event of store.readAll({ batch: 1_000 }));
      times.push(performance.now() - started);
    }
  });
  return { readAll: times[0]!, readAllWarm: times[1]! };
}

async function round(open: () => Promise<Storage>): Promise<Timings> {
  return {
    ...(await readTwice(open)),
    rebuild: await timed(open, ({ store }, db) => rebuildReadModels(store, db)),
    exported: await timed(open, async ({ store }) => {
      const ledgerExport = new LedgerExport(store, { format: 'csv', from: null, to: null });
      for await (const _chunk of ledgerExport);
    }),
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * What encryption of personal data costs the full rebuild and the finance export: one seeded log
 * written twice, sealed by the encrypting store into one database and as given into another, each
 * read back the same way (PostgreSQL).
 */
export async function privacyBenchmark() {
  const sealedDb = await createThrowawayDatabase('astra_bench');
  const plainDb = await createThrowawayDatabase('astra_bench');
  const openSealed = () =>
    openStorage({ databaseUrl: sealedDb.url, dataDir: null, personalData, dataKeySecret: SECRET });
  const openPlain = () => openStorage({ databaseUrl: plainDb.url, dataDir: null });
  try {
    const sealed = await openSealed();
    const plain = await openPlain();
    let events: number;
    try {
      await migrateReadModels(databaseFor(sealed.connection), READ_SCHEMA);
      await migrateReadModels(databaseFor(plain.connection), READ_SCHEMA);
      const started = performance.now();
      events = await seed(sealed, plain);
      // Both logs settled (statistics, visibility map) before anything is measured.
      for (const { connection } of [sealed, plain]) await connection.sql.exec('VACUUM ANALYZE');
      console.log(
        `Appended ${events} events to each log in ${Math.round(performance.now() - started)} ms`,
      );
    } finally {
      await sealed.close();
      await plain.close();
    }

    const runs: Record<'sealed' | 'plain', Timings[]> = { sealed: [], plain: [] };
    for (let i = 0; i < ROUNDS; i++) {
      // Taking turns, the other one first every other round.
      const order = i % 2 === 0 ? (['plain', 'sealed'] as const) : (['sealed', 'plain'] as const);
      for (const mode of order) {
        const timing = await round(mode === 'sealed' ? openSealed : openPlain);
        runs[mode].push(timing);
        console.log(mode, timing);
      }
    }
    const of = (mode: 'sealed' | 'plain', figure: keyof Timings) =>
      median(runs[mode].map((t) => t[figure]));
    const cost = (figure: keyof Timings) => of('sealed', figure) / of('plain', figure) - 1;
    const n = (value: number) => Math.round(value).toLocaleString('en-US');
    const row = (figure: keyof Timings, what: string, target: boolean) => ({
      what,
      measured: `${n(of('plain', figure))} ms in clear, ${n(of('sealed', figure))} ms sealed: ${cost(figure) >= 0 ? '+' : ''}${(cost(figure) * 100).toFixed(1)} %`,
      target: target ? '≤ +10 %' : '—',
      met: target ? cost(figure) <= 0.1 : null,
    });
    const personal = USERS * (2 + 2 * READINGS_PER_USER) + Math.ceil(USERS / 10);
    const perEvent = ((of('sealed', 'readAllWarm') - of('plain', 'readAllWarm')) * 1000) / personal;
    const perKey =
      (of('sealed', 'readAll') -
        of('sealed', 'readAllWarm') -
        (of('plain', 'readAll') - of('plain', 'readAllWarm'))) /
      USERS;
    await writeSection(
      'privacy',
      'Encryption of personal data: rebuild and export (PostgreSQL)',
      [
        row('rebuild', `full rebuild of every read model from ${n(events)} events`, true),
        row('exported', `finance export (CSV, in process) of the same log`, true),
        row('readAll', 'reading the log alone (`readAll`, nothing done with the events)', false),
        row(
          'readAllWarm',
          'the same read again in the same process (every data key cached)',
          false,
        ),
      ],
      `${n(USERS)} users, each with a profile (registration, birth details), ${READINGS_PER_USER} tarot readings (question, form and a text of about 1,900 characters), their credit account (the free 10, two packs paid, a spend per reading and ${READINGS_PER_USER} voice reactivations) and, for one in ten, a feedback message: ${n(personal)} of the ${n(events)} events hold personal fields. The same events are written by the encrypting store into one database (every personal field sealed with AES-256-GCM under its user's key) and as given by the plain store into another; each figure is the median of ${ROUNDS} rounds taking turns, each on storage opened anew (no data key cached, as in a new process).

Where the time goes: opening a sealed event takes the Node thread about 10 µs (a CPU profile of the rebuild: a decipher context, AES-GCM over the ciphertext and the base64 before it, the JSON of the fields, and the garbage they leave), one ciphertext per event whatever its number of fields. For the rebuild's ${n(personal)} sealed events that is some 0.4 s on the thread that also folds the events and builds their SQL, so it adds to the rebuild almost whole: what is left over the target is this floor of AES-GCM in Node on this machine, not the keys. A bare read hides much of it while it waits for PostgreSQL's next page (the two \`readAll\` rows: ${perEvent.toFixed(0)} µs a sealed event warm). Keys cost ${perKey.toFixed(2)} ms a user (the cold read's extra): a read in bulk from the log's start reads every key in one query, then each page as the store read it, the next page being read meanwhile. The export reads only the streams it books (\`credits-\`, and \`user-\` for the e-mail; other events come without their data), so it opens only the users' own events; its rounds vary by about ±20 % on this machine, as much as the difference. Each figure runs after a \`CHECKPOINT\`, so that one figure's writes are not flushed during the next.`,
    );
  } finally {
    await sealedDb.drop();
    await plainDb.drop();
  }
}
