/** The avatar formats we accept, known by their first bytes, whatever the request claims. */
const signatures: { type: string; matches: (bytes: Uint8Array) => boolean }[] = [
  {
    type: 'image/png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  { type: 'image/webp', matches: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
];

const startsWith = (bytes: Uint8Array, prefix: number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);

const ascii = (bytes: Uint8Array, offset: number, text: string) =>
  startsWith(
    bytes.subarray(offset),
    [...text].map((c) => c.charCodeAt(0)),
  );

/** `image/png`, `image/jpeg`, `image/gif` or `image/webp` by magic bytes; otherwise null. */
export const sniffImageType = (bytes: Uint8Array) =>
  signatures.find((signature) => signature.matches(bytes))?.type ?? null;
