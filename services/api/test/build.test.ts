/**
 * The API's bundle (`npm start`): what it loads as it starts. Clients that only some
 * configurations use (KurrentDB, whose client loads a native module; ElevenLabs, whose SDK is
 * tens of megabytes of heap) are imported by their own code paths, never by the start; so are
 * the e-mail templates and React Email (some 12 MB of heap), by the first message rendered.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_BUNDLE, buildApi } from '../build.ts';

/** The modules a bundle file imports statically, and the bundle's own files among them, read too. */
async function staticImports(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const text = await readFile(file, 'utf8');
  const specifiers = [...text.matchAll(/^import\s(?:[^;]*?\sfrom\s)?["']([^"']+)["'];?$/gm)].map(
    (match) => match[1]!,
  );
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) seen.add(specifier);
    else {
      const path = join(dirname(file), specifier);
      if (!seen.has(path)) {
        seen.add(path);
        await staticImports(path, seen);
      }
    }
  }
  return seen;
}

describe('the API bundle', () => {
  beforeAll(buildApi, 60_000);

  it('starts without loading the KurrentDB client, the ElevenLabs SDK or React Email', async () => {
    const imports = [...(await staticImports(API_BUNDLE))];
    expect(imports).toContain('express');
    expect(imports.filter((m) => /^@(kurrent|elevenlabs|react-email)\//.test(m))).toEqual([]);
    const main = await readFile(API_BUNDLE, 'utf8');
    expect(main).toMatch(/import\(["']@elevenlabs\/elevenlabs-js["']\)/);
    expect(imports.some((m) => m.includes('kurrentdb-event-store'))).toBe(false);
  });
});
