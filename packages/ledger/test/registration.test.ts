import { describe, expect, it } from 'vitest';
import { freeAllotmentKeys, freeAllotmentMailbox, streams } from '../src/index.ts';

describe('the mailbox the free allotment counts (accounts: once per mailbox, not per spelling)', () => {
  it('drops a plus tag on every domain, and lower-cases and trims', () => {
    expect(freeAllotmentMailbox('a+x@example.com')).toBe('a@example.com');
    expect(freeAllotmentMailbox('  Ada+Promo+2@Example.COM ')).toBe('ada@example.com');
    expect(freeAllotmentMailbox('ada@example.com')).toBe('ada@example.com');
  });

  it('drops dots in the local part for Gmail only, and googlemail.com is gmail.com', () => {
    expect(freeAllotmentMailbox('a.b+promo@gmail.com')).toBe('ab@gmail.com');
    expect(freeAllotmentMailbox('A.B@GoogleMail.com')).toBe('ab@gmail.com');
    expect(freeAllotmentMailbox('a.b@example.com')).toBe('a.b@example.com');
    expect(freeAllotmentMailbox('a.b@gmail.com.evil.example')).toBe('a.b@gmail.com.evil.example');
  });

  it('keeps addresses it cannot shorten sensibly as they are (lower-cased)', () => {
    expect(freeAllotmentMailbox('+tag@example.com')).toBe('+tag@example.com');
    expect(freeAllotmentMailbox('...@gmail.com')).toBe('...@gmail.com');
    expect(freeAllotmentMailbox('No-At-Sign')).toBe('no-at-sign');
  });

  it('names the key claims had before mailboxes were counted, when it differs', () => {
    expect(freeAllotmentKeys(' A.B+Promo@gmail.com')).toEqual({
      mailbox: 'ab@gmail.com',
      legacy: 'a.b+promo@gmail.com',
    });
    expect(freeAllotmentKeys('Ada@Example.com')).toEqual({
      mailbox: 'ada@example.com',
      legacy: null,
    });
    // The legacy key is the stream every claim so far was made on.
    expect(streams.freeAllotment(freeAllotmentKeys('A.B+x@gmail.com').legacy!)).toBe(
      streams.freeAllotment('a.b+x@gmail.com'),
    );
  });
});
