import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite keeps its database in DATA_DIR and must have one process at a time; a pid file says
 * which. A stale file (its process gone) is taken over.
 */
export async function lockDataDir(dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'astra.pid');
  const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  if (holder && holder !== process.pid && alive(holder)) {
    throw new Error(
      `DATA_DIR ${dataDir} is in use by process ${holder}; stop it first or use another DATA_DIR`,
    );
  }
  await writeFile(file, String(process.pid));
  return async () => {
    await rm(file, { force: true });
  };
}
