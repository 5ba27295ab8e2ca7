/**
 * `npm start` builds only what changed (`scripts/start.mjs`): the fingerprint of a build's
 * inputs, and the decision to build from it and the stamp in the output.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILDS, fingerprint, needsBuild, writeStamp } from '../../../scripts/start.mjs';

describe('npm start: building only what changed', () => {
  let root: string;
  const inputs = ['src', 'config.json'];
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'astra-start-'));
    await mkdir(join(root, 'src', 'nested'), { recursive: true });
    await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(root, 'src', 'nested', 'b.ts'), 'export const b = 2;\n');
    await writeFile(join(root, 'config.json'), '{}\n');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('fingerprints contents: a touched file changes nothing, an edit or a new file does', async () => {
    const before = fingerprint(root, inputs);
    await utimes(join(root, 'src', 'a.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(fingerprint(root, inputs)).toBe(before);
    await writeFile(join(root, 'src', 'nested', 'b.ts'), 'export const b = 3;\n');
    const edited = fingerprint(root, inputs);
    expect(edited).not.toBe(before);
    await writeFile(join(root, 'src', 'c.ts'), '');
    expect(fingerprint(root, inputs)).not.toBe(edited);
  });

  it('counts a renamed file as a change, and ignores dotfiles, node_modules and dist', async () => {
    const before = fingerprint(root, inputs);
    await mkdir(join(root, 'src', 'node_modules'));
    await writeFile(join(root, 'src', 'node_modules', 'x.js'), 'x');
    await mkdir(join(root, 'src', 'dist'));
    await writeFile(join(root, 'src', 'dist', 'y.js'), 'y');
    await writeFile(join(root, 'src', '.cache'), 'z');
    expect(fingerprint(root, inputs)).toBe(before);
    await rm(join(root, 'src', 'a.ts'));
    await writeFile(join(root, 'src', 'renamed.ts'), 'export const a = 1;\n');
    expect(fingerprint(root, inputs)).not.toBe(before);
  });

  it('builds when the output, its entry or its stamp is missing, or the stamp differs', async () => {
    const output = join(root, 'dist');
    const current = fingerprint(root, inputs);
    expect(needsBuild(output, 'index.html', current)).toBe(true);
    await mkdir(output);
    await writeFile(join(output, 'index.html'), '<!doctype html>');
    expect(needsBuild(output, 'index.html', current)).toBe(true);
    writeStamp(output, current);
    expect(needsBuild(output, 'index.html', current)).toBe(false);
    await writeFile(join(root, 'config.json'), '{"changed":true}\n');
    expect(needsBuild(output, 'index.html', fingerprint(root, inputs))).toBe(true);
    writeStamp(output, fingerprint(root, inputs));
    await rm(join(output, 'index.html'));
    expect(needsBuild(output, 'index.html', fingerprint(root, inputs))).toBe(true);
  });

  it('names inputs that exist in this repository for both builds', () => {
    const repo = join(import.meta.dirname, '../../..');
    expect(BUILDS.map((b) => b.output)).toEqual(['web/dist', 'services/api/dist']);
    for (const build of BUILDS) {
      for (const input of build.inputs) expect(existsSync(join(repo, input)), input).toBe(true);
    }
  });
});
