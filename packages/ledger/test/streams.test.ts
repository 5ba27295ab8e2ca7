import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION, type StoredEvent } from '@astra/contracts';
import { describe, expect, it } from 'vitest';
import { decodeLogEvent, streamKindNames, streamKinds, streams } from '../src/index.ts';

const stored = (overrides: Partial<StoredEvent>): StoredEvent => ({
  id: 'e-1',
  stream: 'user-u1',
  revision: 3n,
  position: 41n,
  type: 'UserBlocked',
  data: {},
  metadata: { schemaVersion: SCHEMA_VERSION },
  recordedAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
});

/** The stream names of a doc's "Streams" table, as written in its first column. */
const documentedStreams = (doc: string) => {
  const text = readFileSync(join(import.meta.dirname, '../../../docs', doc), 'utf8');
  const section = text.slice(text.indexOf('\n## Streams\n'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|')));
  return [...table.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]!);
};

describe('the stream registry', () => {
  it('names each kind’s streams by its category', () => {
    expect(streams.credits('u1')).toBe('credits-u1');
    expect(streams.freeAllotment('m1')).toBe('free-allotment-m1');
    expect(streams.admins(null)).toBe('admins');
  });

  it.each(['architecture.md', 'events.md'])('is the streams table of docs/%s', (doc) => {
    const names = streamKindNames.map((name) => {
      const kind = streamKinds[name];
      return 'single' in kind ? kind.category : `${kind.category}-{`;
    });
    const documented = documentedStreams(doc).map((name) => name.replace(/\{.*$/, '{'));
    expect(documented.sort()).toEqual(names.sort());
  });

  it('decodes an event of the log as its stream’s kind requires, and leaves other streams alone', () => {
    expect(decodeLogEvent(stored({}))?.type).toBe('UserBlocked');
    expect(
      decodeLogEvent(stored({ stream: 'admins', type: 'AdminRegistered', data: { userId: 'u1' } })),
    ).toMatchObject({ data: { userId: 'u1' } });
    expect(decodeLogEvent(stored({ stream: 'tally-1', type: 'Counted', data: { n: 1 } }))).toBe(
      null,
    );
    expect(() => decodeLogEvent(stored({ stream: 'reading-r1' }))).toThrow(
      'UserBlocked is not an event of a reading- stream',
    );
  });
});
