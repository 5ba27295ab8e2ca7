import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeEvent,
  EventDecodeError,
  eventSchemas,
  SCHEMA_VERSION,
  type StoredEvent,
  streamDecoders,
  streamEventSchemas,
} from '../src/index.ts';

const stored = (overrides: Partial<StoredEvent>): StoredEvent => ({
  id: 'e-1',
  stream: 'user-u1',
  revision: 3n,
  position: 41n,
  type: 'UserRoleChanged',
  data: {},
  metadata: { schemaVersion: SCHEMA_VERSION },
  recordedAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
});

const decodeError = (
  event: StoredEvent,
  decode: (event: StoredEvent) => unknown = decodeEvent,
): EventDecodeError => {
  try {
    decode(event);
  } catch (error) {
    if (error instanceof EventDecodeError) return error;
    throw error;
  }
  throw new Error('decoded');
};

describe('decodeEvent', () => {
  it('knows every event type of every family once (no family hides another’s type)', () => {
    // Each family once (a family may serve two kinds of stream).
    const families = [...new Set(Object.values(streamEventSchemas))];
    const types = families.flatMap((family) => Object.keys(family));
    expect(new Set(types).size).toBe(types.length);
    expect(Object.keys(eventSchemas).sort()).toEqual([...types].sort());
  });

  it('reads a current event as its schema parses it, keeping where it is in the log', () => {
    const event = stored({
      stream: 'credits-u1',
      type: 'CreditsSpent',
      data: {
        spendId: 's1',
        amount: 3,
        purpose: 'reading',
        description: 'Tarot reading',
        appId: 4,
        readingId: 'r1',
      },
    });
    const decoded = decodeEvent(event);
    expect(decoded).toEqual(event);
    expect(decoded.type === 'CreditsSpent' && decoded.data.amount).toBe(3);
  });

  it('upcasts a version 1 UserRoleChanged without a source to `admin_emails` (all of them were)', () => {
    const old = stored({ data: { role: 'admin' }, metadata: { schemaVersion: 1 } });
    expect(decodeEvent(old).data).toEqual({ role: 'admin', source: 'admin_emails' });
    // Written before metadata carried a version: version 1.
    expect(decodeEvent(stored({ data: { role: 'user' }, metadata: {} })).data).toEqual({
      role: 'user',
      source: 'admin_emails',
    });
    // The log itself is not changed.
    expect(old.data).toEqual({ role: 'admin' });
  });

  it('upcasts every version 1 role change to the current shape, keeping a source it had', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('user', 'admin'),
        fc.option(fc.constantFrom('admin', 'admin_emails'), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (role, source, adminId) => {
          const data = {
            role,
            ...(source ? { source } : {}),
            ...(adminId !== undefined ? { adminId } : {}),
          };
          const decoded = streamDecoders.user(stored({ data, metadata: { schemaVersion: 1 } }));
          expect(decoded.data).toEqual({ ...data, source: source ?? 'admin_emails' });
        },
      ),
    );
  });

  it('does not upcast a current event: a current role change without a source is an error', () => {
    const error = decodeError(stored({ data: { role: 'admin' } }));
    expect(error.message).toContain('source');
  });

  it('names the event’s position, stream, revision and type, and what is wrong, when it fails', () => {
    const error = decodeError(
      stored({
        stream: 'credits-u9',
        revision: 7n,
        position: 1234n,
        type: 'CreditsGranted',
        data: { grantId: 'g1', kind: 'purchase', amount: -5, reason: 'x', tierId: null },
      }),
    );
    expect(error).toMatchObject({
      name: 'EventDecodeError',
      stream: 'credits-u9',
      revision: 7n,
      position: 1234n,
      type: 'CreditsGranted',
    });
    expect(error.message).toMatch(
      /^Cannot decode event CreditsGranted at position 1234 \(stream credits-u9, revision 7\): /,
    );
    expect(error.message).toContain('amount');
    expect(error.message).toContain('reference');
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['amount', 'reference']),
    );
  });

  it('refuses a type the app does not know, and one of another kind of stream', () => {
    expect(decodeError(stored({ type: 'Counted', data: { n: 1 } })).message).toContain(
      'Counted is not an event type of the app',
    );
    const userEvent = stored({ stream: 'credits-u1', type: 'UserBlocked', data: {} });
    expect(decodeEvent(userEvent).type).toBe('UserBlocked');
    expect(decodeError(userEvent, streamDecoders.credits).message).toContain(
      'UserBlocked is not an event of a credits- stream',
    );
  });

  it('refuses an event written by newer code, and a version that is not one', () => {
    const newer = stored({
      type: 'UserBlocked',
      data: {},
      metadata: { schemaVersion: SCHEMA_VERSION + 1 },
    });
    expect(decodeError(newer).message).toContain(`newer than this code's ${SCHEMA_VERSION}`);
    const broken = stored({ type: 'UserBlocked', data: {}, metadata: { schemaVersion: '2' } });
    expect(decodeError(broken).message).toContain('schemaVersion "2" is not valid');
  });
});
