import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

/**
 * Opens storage in a fresh Node process (the test runner's own module cache already holds the
 * client) and reports which `@kurrent/*` modules, the client and its native bridge, got loaded (and whether
 * commands may start from snapshots).
 */
const probe = `
import { createRequire } from 'node:module';
const { openStorage } = await import(${JSON.stringify(src('index.ts'))});
const { pgliteTemplate } = await import(${JSON.stringify(src('testing.ts'))});
const kurrent = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((m) => m.includes('@kurrent'));
const template = await pgliteTemplate();
const plain = await openStorage({ dataDir: null, pgliteTemplate: template });
const withoutKurrent = kurrent();
await plain.close();
const onKurrent = await openStorage({
  dataDir: null,
  pgliteTemplate: template,
  kurrentdbConnectionString: 'kurrentdb://127.0.0.1:1?tls=false',
});
const withKurrent = kurrent();
await onKurrent.close();
const stateSnapshots = {
  plain: plain.stateSnapshots === plain.snapshots,
  onKurrent: onKurrent.stateSnapshots,
};
console.log(JSON.stringify({ withoutKurrent, withKurrent, kind: onKurrent.store.kind, stateSnapshots }));
`;

describe('openStorage', () => {
  it('loads the KurrentDB client and its native module only when KurrentDB is configured', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', probe],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 },
    );
    const loaded = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(loaded.withoutKurrent).toEqual([]);
    expect(loaded.kind).toBe('kurrentdb');
    expect(loaded.withKurrent.some((m: string) => m.includes('kurrentdb-client'))).toBe(true);
    expect(loaded.withKurrent.some((m: string) => m.endsWith('.node'))).toBe(true);
    // Commands start from snapshots only where they share the log's database.
    expect(loaded.stateSnapshots).toEqual({ plain: true, onKurrent: null });
  }, 60_000);
});
