import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { MonthlyReport } from '@astra/contracts';
import { postgresForTests } from '@astra/event-store/testing';
import { freeAllotmentMailbox, legacyEmailKey } from '@astra/ledger';
import { monthlyReport, verifyLedger } from '@astra/projections';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, caughtUp, mailSettled, startTestServer, type TestServer } from './support.ts';

/**
 * Erasure proven against the raw database (issue "Forget on request"): random histories of a few
 * people (names with quotes and accents, e-mails, birth details, readings with questions and a
 * second person, feedback, purchases, spends, admin adjustments), then one of them is deleted,
 * by themselves or by an admin. A full logical dump of the database (pg_dump; PGlite: every row
 * of every table as text) holds nothing of theirs, everyone else's data still reads through
 * the API, `ledger:verify` is clean and the month report moves only by the deletion's forfeit.
 */

const run = promisify(execFile);

/**
 * A marker no database writes by itself: `_` is in neither base64 (the sealed values), hex nor
 * UUIDs, so a hit is one of our strings, in whatever escaping the dump gives it.
 */
const newToken = () => `zz_${randomBytes(8).toString('hex')}_zz`;

const nameStyles = ['Zoë', "O'Brien", 'Jean "JJ"', 'Łukasz', '李雷', 'Ñandú 🌙', 'Back\\slash'];
const questionStyles = [
  'Will my secret affair with Bruno stay hidden?',
  'Should I tell "her" the truth, or wait?',
  'Où est passé mon cœur ?',
  'Is the path ahead of me\\us clear?',
];
const feedbackStyles = ['Love the app!\nBut "the moon" is off.', 'Ça marche — très bien', 'Ok'];
const emailStyles = ['Zoe', "o'brien", 'Jean+astro', 'MiXeD.Case'];

/** A personal string and the field it was given in (each its own token: a leak names it). */
interface Personal {
  field: string;
  value: string;
}

interface Person {
  email: string;
  fullName: string;
  profile: { firstName: string; lastName: string; birthCity: string; birthCountry: string } | null;
  birthDate: string;
  readings: Reading[];
  feedback: string[];
  purchase: boolean;
  adjustment: number;
}

type Reading =
  | { kind: 'tarot-traditional'; body: { firstName: string; question: string } }
  | { kind: 'life-path'; body: { firstName: string; lastName: string; birthDate: string } }
  | {
      kind: 'compatibility';
      body: {
        person1: Record<string, string>;
        person2: Record<string, string>;
      };
    };

const costs = { 'tarot-traditional': 4, 'life-path': 5, compatibility: 8 } as const;

const styled = fc.constantFrom(...nameStyles);
/** A birth date from 1800 (charts start there): made unique per server by `uniqueDate`. */
const birthDate = fc
  .record({
    year: fc.integer({ min: 1800, max: 1899 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ year, month, day }) => new Date(Date.UTC(year, month - 1, day)));

const readingArbitrary = fc.oneof(
  fc.record({
    kind: fc.constant('tarot-traditional' as const),
    name: styled,
    question: fc.constantFrom(...questionStyles),
  }),
  fc.record({ kind: fc.constant('life-path' as const), name: styled, birth: birthDate }),
  fc.record({
    kind: fc.constant('compatibility' as const),
    name: styled,
    partner: styled,
    birth: birthDate,
  }),
);

const personArbitrary = fc.record({
  emailStyle: fc.constantFrom(...emailStyles),
  name: styled,
  profile: fc.option(fc.tuple(styled, styled), { nil: null }),
  birth: birthDate,
  readings: fc.array(readingArbitrary, { maxLength: 3 }),
  feedback: fc.array(fc.constantFrom(...feedbackStyles), { maxLength: 2 }),
  purchase: fc.boolean(),
  adjustment: fc.integer({ min: -8, max: 20 }),
});

const historyArbitrary = fc.record({
  people: fc.array(personArbitrary, { minLength: 2, maxLength: 3 }),
  subject: fc.nat(),
  byAdmin: fc.boolean(),
  /** Whether the subject spends their balance to zero before leaving. */
  drain: fc.boolean(),
});

type Generated = typeof historyArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Someone who did everything once: paid, changed their profile, read, wrote, was adjusted. */
const busy: Generated['people'][number] = {
  emailStyle: "o'brien",
  name: 'Jean "JJ"',
  profile: ['Zoë', 'Back\\slash'],
  birth: new Date('1850-06-15T00:00:00Z'),
  readings: [
    {
      kind: 'compatibility',
      name: 'Łukasz',
      partner: 'Ñandú 🌙',
      birth: new Date('1820-02-02T00:00:00Z'),
    },
    { kind: 'tarot-traditional', name: '李雷', question: questionStyles[0]! },
    { kind: 'life-path', name: "O'Brien", birth: new Date('1870-03-03T00:00:00Z') },
  ],
  feedback: [feedbackStyles[0]!],
  purchase: true,
  adjustment: -3,
};

/**
 * Always run first: such a person leaves with paid credits (the forfeit moves money in the
 * report), by an admin's hand; and leaves with their balance spent, by their own.
 */
const examples: [Generated][] = [
  [{ people: [busy, busy], subject: 0, byAdmin: true, drain: false }],
  [{ people: [busy, busy, busy], subject: 1, byAdmin: false, drain: true }],
];

/** Dates already used on a server: a subject's date must not be someone else's too. */
const uniqueDate = (used: Set<string>, date: Date) => {
  const day = new Date(date);
  while (used.has(day.toISOString().slice(0, 10))) day.setUTCDate(day.getUTCDate() + 1);
  const text = day.toISOString().slice(0, 10);
  used.add(text);
  return text;
};

/** The generated shape made concrete: every string given its token. */
function personOf(generated: Generated['people'][number], usedDates: Set<string>): Person {
  const tokened = (text: string) => `${text} ${newToken()}`;
  return {
    email: `${generated.emailStyle}.${newToken()}@Example.com`,
    fullName: tokened(generated.name),
    profile: generated.profile && {
      firstName: tokened(generated.profile[0]),
      lastName: tokened(generated.profile[1]),
      birthCity: tokened('Ærøskøbing'),
      birthCountry: tokened("Côte d'Ivoire"),
    },
    birthDate: uniqueDate(usedDates, generated.birth),
    readings: generated.readings.map((r): Reading => {
      if (r.kind === 'tarot-traditional')
        return {
          kind: r.kind,
          body: { firstName: tokened(r.name), question: tokened(r.question) },
        };
      if (r.kind === 'life-path')
        return {
          kind: r.kind,
          body: {
            firstName: tokened(r.name),
            lastName: tokened('Lovelace'),
            birthDate: uniqueDate(usedDates, r.birth),
          },
        };
      const place = { birthTime: '13:00', city: 'London', country: 'United Kingdom' };
      return {
        kind: r.kind,
        body: {
          person1: {
            firstName: tokened(r.name),
            lastName: tokened('Ada'),
            birthDate: uniqueDate(usedDates, r.birth),
            ...place,
          },
          person2: {
            firstName: tokened(r.partner),
            lastName: tokened('Babbage'),
            birthDate: uniqueDate(usedDates, r.birth),
            ...place,
            city: 'Paris',
            country: 'France',
          },
        },
      };
    }),
    feedback: generated.feedback.map(tokened),
    purchase: generated.purchase,
    adjustment: generated.adjustment,
  };
}

/** Every personal string of a person, named by field (the e-mail as the app keeps it: lower case). */
function personalStrings(person: Person): Personal[] {
  const strings: Personal[] = [
    { field: 'e-mail', value: person.email },
    { field: 'e-mail (normalized)', value: person.email.toLowerCase() },
    { field: 'full name', value: person.fullName },
  ];
  if (person.profile) {
    for (const [field, value] of Object.entries(person.profile)) strings.push({ field, value });
    strings.push({ field: 'birthDate', value: person.birthDate });
  }
  person.readings.forEach((reading, i) => {
    const flat = (prefix: string, fields: Record<string, string>) => {
      for (const [field, value] of Object.entries(fields))
        if (field !== 'birthTime' && field !== 'city' && field !== 'country')
          strings.push({ field: `reading ${i} (${reading.kind}) ${prefix}${field}`, value });
    };
    if (reading.kind === 'compatibility') {
      flat('person1.', reading.body.person1);
      flat('person2.', reading.body.person2);
    } else flat('', reading.body);
  });
  for (const [i, value] of person.feedback.entries())
    strings.push({ field: `feedback ${i}`, value });
  return strings;
}

/** What reads back through the API: the name given at sign-up gives way to the profile's. */
const readableStrings = (person: Person) =>
  personalStrings(person).filter(({ field }) => !(person.profile && field === 'full name'));

/** The forms a string may take in a dump: as given, lower case, JSON-escaped, and its token. */
const formsOf = (value: string) => {
  const json = JSON.stringify(value).slice(1, -1);
  return [
    ['as given', value],
    ['lower case', value.toLowerCase()],
    ['JSON-escaped', json],
    ['JSON-escaped, lower case', json.toLowerCase()],
  ] as const;
};
/** What finds a string in any escaping: its token (a date, which has none: itself). */
const needleOf = (value: string) => /zz_[0-9a-f]{16}_zz/.exec(value)?.[0] ?? value;

/** One table's rows as text, named `schema.table`. */
interface DumpPart {
  where: string;
  text: string;
}

/**
 * A full logical dump: pg_dump of the PostgreSQL database, split at its COPY sections so a hit
 * names its table; PGlite: every row of every table of every schema, as text.
 */
async function dumpOf(server: TestServer): Promise<DumpPart[]> {
  if (server.databaseUrl) {
    const { stdout } = await run('/usr/bin/pg_dump', ['--no-owner', server.databaseUrl], {
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout.split(/\n(?=COPY )/).map((part) => ({
      where: /^COPY ([^ ]+)/.exec(part)?.[1] ?? '(schema)',
      text: part,
    }));
  }
  const { db } = server.deps;
  const { rows: tables } = await sql<{ schema: string; name: string }>`
    SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
    ORDER BY 1, 2`.execute(db);
  const parts: DumpPart[] = [];
  for (const { schema, name } of tables) {
    const table = sql.table(`${schema}.${name}`);
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${table} t`.execute(db);
    parts.push({ where: `${schema}.${name}`, text: rows.map((r) => r.row).join('\n') });
  }
  return parts;
}

/** Where a dump holds any form of the strings: `table: field (form): …excerpt…`. */
function leaksIn(dump: DumpPart[], strings: Personal[]) {
  const leaks: string[] = [];
  for (const { where, text } of dump) {
    const lower = text.toLowerCase();
    for (const { field, value } of strings) {
      const forms = formsOf(value).filter(([, form]) => text.includes(form));
      const at = forms.length ? text.indexOf(forms[0]![1]) : lower.indexOf(needleOf(value));
      if (at < 0) continue;
      const names = forms.length ? forms.map(([name]) => name).join(', ') : 'its token';
      const end = text.indexOf('\n', at);
      const line = text.slice(text.lastIndexOf('\n', at) + 1, end < 0 ? undefined : end);
      leaks.push(`${where}: ${field} (${names}) in «${line.slice(0, 400)}»`);
    }
  }
  return leaks;
}

const monthNow = () => new Date().toISOString().slice(0, 7);

/** The report's figures (what it counted through is not a figure). */
const figuresOf = (report: MonthlyReport) => ({
  credits: report.credits,
  money: report.money,
  flags: report.flags,
});

/**
 * What the deletion itself adds to the month (docs/finance.md): the balance forfeited at
 * deletion leaves the closing credits and the balances, and the value of its paid credits moves
 * from deferred to recognized. Cash, and everything else, stays.
 */
function withForfeit(
  before: ReturnType<typeof figuresOf>,
  credits: number,
  value: Map<string, number>,
) {
  return {
    credits: {
      ...before.credits,
      forfeitedDeletion: before.credits.forfeitedDeletion + credits,
      closing: before.credits.closing - credits,
      balancesAtClose: before.credits.balancesAtClose - credits,
    },
    money: before.money.map((m) => {
      const v = value.get(m.currency) ?? 0;
      if (v === 0) return m;
      // Breakage, on its line (before refunds); out of what this month's packs left deferred.
      const others = m.revenue.filter((r) => r.line !== 'breakage:deletion');
      const had = m.revenue.find((r) => r.line === 'breakage:deletion')?.minor ?? 0;
      const breakage = { line: 'breakage:deletion' as const, minor: had + v };
      const refunds = others.findIndex((r) => r.line === 'refunds');
      return {
        ...m,
        recognized: m.recognized + v,
        recognizedToDate: m.recognizedToDate + v,
        deferredClosing: m.deferredClosing - v,
        revenue:
          refunds < 0
            ? [...others, breakage]
            : [...others.slice(0, refunds), breakage, ...others.slice(refunds)],
        deferredByPurchaseMonth: m.deferredByPurchaseMonth
          .map((aged) =>
            aged.purchased === monthNow() ? { ...aged, closing: aged.closing - v } : aged,
          )
          .filter((aged) => aged.opening !== 0 || aged.closing !== 0),
      };
    }),
    flags: before.flags,
  };
}

const expectStatus = (answer: { status: number; body: unknown }, status: number, what: string) =>
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(status);

/** A signed-in person with their history played through the API; their balance at the end. */
async function play(server: TestServer, admin: Client, person: Person) {
  const client = server.client();
  const me = await client.signIn(person.email, person.fullName);
  let balance = me.remainingCredits;
  if (person.profile) {
    const patched = await client.patch('/api/me', {
      ...person.profile,
      birthDate: person.birthDate,
      birthTime: '06:45',
    });
    expectStatus(patched, 200, 'profile');
  }
  if (person.purchase) {
    const checkout = await client.post('/api/checkout', { tierId: 1, isSubscription: false });
    expectStatus(checkout, 200, 'checkout');
    expectStatus(
      await client.post(`/api/checkout/local/${checkout.body.sessionId}/pay`),
      200,
      'pay',
    );
    await caughtUp(server);
    balance = (await client.get('/api/me')).body.remainingCredits;
  }
  const adjustment = Math.max(person.adjustment, -balance);
  if (adjustment !== 0) {
    const adjusted = await admin.post(`/api/admin/users/${me.id}/credits`, {
      amount: adjustment,
      reason: 'Goodwill',
    });
    expectStatus(adjusted, 200, 'adjustment');
    balance += adjustment;
  }
  const written: Reading[] = [];
  for (const reading of person.readings) {
    // A reading the balance cannot pay is left out: what is written is the history.
    if (balance < costs[reading.kind]) continue;
    const answer = await client.post(`/api/readings/${reading.kind}`, reading.body);
    expectStatus(answer, 201, reading.kind);
    balance = answer.body.remainingCredits;
    written.push(reading);
  }
  for (const message of person.feedback)
    expectStatus(await client.post('/api/feedback', { message }), 201, 'feedback');
  // Only what was written is theirs to find.
  return { client, id: me.id, balance, person: { ...person, readings: written } };
}

/** Balances no mix of 4, 5 and 12 credits makes: topped up first. */
const undrainable = new Set([1, 2, 3, 6, 7, 11]);
const drainReadings = [
  ['tarot-celtic-cross', 12, { firstName: 'Drain', question: 'Anything?' }],
  ['life-path', 5, { firstName: 'Drain', lastName: 'Away', birthDate: '1990-01-01' }],
  ['tarot-traditional', 4, { firstName: 'Drain', question: 'Anything?' }],
] as const;

/** Spends a balance to zero on readings, each leaving a balance the others can still spend. */
async function drain(
  server: TestServer,
  admin: Client,
  client: Client,
  id: string,
  balance: number,
) {
  if (undrainable.has(balance)) {
    const topUp = 12 - balance;
    expectStatus(
      await admin.post(`/api/admin/users/${id}/credits`, { amount: topUp, reason: 'Top up' }),
      200,
      'top-up',
    );
    balance += topUp;
  }
  while (balance > 0) {
    const [kind, , body] = drainReadings.find(
      ([, cost]) => balance - cost >= 0 && !undrainable.has(balance - cost),
    )!;
    const answer = await client.post(`/api/readings/${kind}`, body);
    expectStatus(answer, 201, `drain ${kind}`);
    balance = answer.body.remainingCredits;
  }
  await caughtUp(server);
}

// On both stores: PGlite always, PostgreSQL where the machine has it.
for (const storage of ['pglite', 'postgres'] as const) {
  const available = storage === 'pglite' || (await postgresForTests());
  describe.runIf(available)(`erasure against a full dump (${storage})`, () => {
    let server: TestServer;
    let admin: Client;
    const usedDates = new Set<string>();
    /** People still there (their data must read) and people erased, over every run. */
    const kept: { person: Person; client: Client }[] = [];
    const erased: Person[] = [];
    const addresses: string[] = ['admin@example.com'];

    beforeAll(async () => {
      server = await startTestServer({}, storage);
      admin = server.client();
      await admin.signInAsAdmin();
    });
    afterAll(() => server?.close());

    it('leaves nothing of the subject in the dump, everyone else readable, the ledger verified and the report tied', async () => {
      await fc.assert(
        fc.asyncProperty(historyArbitrary, async (history) => {
          const played: { person: Person; client: Client; id: string; balance: number }[] = [];
          for (const generated of history.people) {
            const person = personOf(generated, usedDates);
            played.push(await play(server, admin, person));
            addresses.push(person.email);
          }
          await caughtUp(server);
          const subject = played[history.subject % played.length]!;
          if (history.drain && subject.balance > 0) {
            await drain(server, admin, subject.client, subject.id, subject.balance);
            subject.balance = 0;
          }
          // Held before: the absence afterwards is no accident of a history that wrote nothing.
          const exported = await subject.client.get('/api/me/export');
          expectStatus(exported, 200, 'export');
          const own = JSON.stringify(exported.body).toLowerCase();
          for (const { field, value } of readableStrings(subject.person))
            expect(own, `the subject's export before erasure holds ${field}`).toContain(
              needleOf(value),
            );

          // A dump that could not see the strings would prove nothing: before the erasure it
          // finds them (the read models show them).
          const seen = leaksIn(await dumpOf(server), personalStrings(subject.person));
          expect(seen.length, 'the dump shows the subject before the erasure').toBeGreaterThan(0);

          const month = monthNow();
          const before = figuresOf(await monthlyReport(server.deps.ledger.store, month));
          const held = await admin.get(`/api/admin/users/${subject.id}/balance`);
          expectStatus(held, 200, 'balance');
          const value = new Map<string, number>(
            held.body.deferred.map((d: { currency: string; minor: number }) => [
              d.currency,
              d.minor,
            ]),
          );

          const deleted = history.byAdmin
            ? await admin.delete(`/api/admin/users/${subject.id}`)
            : await subject.client.delete('/api/me');
          expectStatus(deleted, 200, 'delete');
          await caughtUp(server);
          // The account-deleted message goes out to the address on record, then is erased too.
          await mailSettled(server, subject.id);
          erased.push(subject.person);
          for (const other of played) if (other !== subject) kept.push(other);

          const leaks = leaksIn(await dumpOf(server), erased.flatMap(personalStrings));
          expect(leaks, 'personal data of erased people left in the dump').toEqual([]);

          for (const { person, client } of kept) {
            const exported = await client.get('/api/me/export');
            expectStatus(exported, 200, 'export');
            const text = JSON.stringify(exported.body).toLowerCase();
            for (const { field, value: v } of readableStrings(person))
              expect(text, `${person.email}'s ${field} still reads`).toContain(needleOf(v));
          }

          const verified = await verifyLedger(server.deps.ledger.store, server.deps.db);
          expect(verified.differences).toEqual([]);
          expect(verified.behind).toEqual([]);

          expect(monthNow(), 'the run crossed a month’s end: run it again').toBe(month);
          const after = figuresOf(await monthlyReport(server.deps.ledger.store, month));
          expect(after.flags).toEqual([]);
          if (subject.balance === 0) expect(after).toEqual(before);
          else expect(after).toEqual(withForfeit(before, subject.balance, value));
        }),
        // No shrinking: each run writes to the same server, and the first failure says enough.
        { numRuns: 6, examples, endOnFailure: true },
      );
    }, 90_000);

    it('names mailbox streams by an HMAC, never the plain SHA-256 of the address, which no table holds', async () => {
      // Besides the histories' people: a tagged, mixed-case address, erased, and one that stays.
      const leaving = `Leaving+Tag.${newToken()}@Example.com`;
      const staying = `staying.${newToken()}@example.com`;
      const gone = server.client();
      await gone.signIn(leaving);
      await server.client().signIn(staying);
      expectStatus(await gone.delete('/api/me'), 200, 'delete');
      await caughtUp(server);
      addresses.push(leaving, staying);
      const { rows } = await sql<{ name: string }>`
        SELECT DISTINCT stream_name AS name FROM events
        WHERE stream_name LIKE 'email-%' OR stream_name LIKE 'free-allotment-%'`.execute(
        server.deps.db,
      );
      const names = new Set(rows.map((r) => r.name));
      // The e-mail stream is the address's; the free allotment its mailbox's (`+tags` dropped).
      const legacy = addresses.flatMap((address) => [
        legacyEmailKey(address),
        legacyEmailKey(freeAllotmentMailbox(address)),
      ]);
      for (const address of addresses) {
        const email = server.deps.ledger.mailboxId(address.trim().toLowerCase());
        const allotment = server.deps.ledger.mailboxId(freeAllotmentMailbox(address));
        expect(names, address).toContain(`email-${email}`);
        expect(names, address).toContain(`free-allotment-${allotment}`);
        expect(legacy).not.toContain(email);
        expect(legacy).not.toContain(allotment);
      }
      const dump = await dumpOf(server);
      const found = dump.flatMap(({ where, text }) =>
        legacy.filter((key) => text.includes(key)).map((key) => `${where}: ${key}`),
      );
      expect(found).toEqual([]);
    });
  });
}
