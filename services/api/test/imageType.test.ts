import { describe, expect, it } from 'vitest';
import { sniffImageType } from '../src/modules/profile/imageType.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => Buffer.from(part as string)));

describe('picture types by their first bytes', () => {
  it('knows PNG, JPEG, GIF and WebP', () => {
    expect(sniffImageType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'))).toBe(
      'image/png',
    );
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF87a', [1, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('GIF89a', [1, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('knows nothing else, however close', () => {
    for (const other of [
      bytes(''),
      bytes([0x89], 'PNG'),
      bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('%PDF-1.7'),
      bytes('GIF90a'),
    ]) {
      expect(sniffImageType(other)).toBeNull();
    }
  });
});
