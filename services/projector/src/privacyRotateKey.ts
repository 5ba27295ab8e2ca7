import { access, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openProjectionStorage, runCli } from './storage.ts';

/**
 * `npm run privacy:rotate-key` (docs/operations.md, "Personal data"): re-wraps every data key
 * under the master key of `NEW_DATA_KEY_SECRET`: each round is one compare-and-set statement,
 * repeated until no key is left under the old master. `DATA_KEY_SECRET` is the current secret
 * (or, without it, the `data-key-secret` file in DATA_DIR, which then receives the new one).
 * Every process must then start with the new secret: the old one opens nothing.
 */
await runCli(async () => {
  const next = process.env.NEW_DATA_KEY_SECRET ?? '';
  if (next.length < 32) {
    console.error('NEW_DATA_KEY_SECRET: the new secret is required (at least 32 characters).');
    return 2;
  }
  const storage = await openProjectionStorage(process.env);
  try {
    if (!storage.keyring) throw new Error('The storage opened without its keyring');
    const rewrapped = await storage.keyring.rotate(next);
    const file = join(storage.env.DATA_DIR, 'data-key-secret');
    // Without DATA_KEY_SECRET the secret came from this file: it must hold the new one now.
    const embeddedSecret = !storage.env.DATA_KEY_SECRET && (await exists(file));
    if (embeddedSecret) {
      // Written beside and renamed over: a crash leaves the old file or the new, never half.
      const temporary = `${file}.${process.pid}.new`;
      await writeFile(temporary, `${next}\n`, { mode: 0o600 });
      await rename(temporary, file);
    }
    console.log(
      `Re-wrapped ${rewrapped} data keys under the new secret. ${
        embeddedSecret
          ? `${file} now holds it.`
          : 'Start every process (api, projector, tools) with DATA_KEY_SECRET set to it.'
      }`,
    );
    return 0;
  } finally {
    await storage.close();
  }
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
