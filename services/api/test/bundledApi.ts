import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { apiNodeArgs } from '../build.ts';

const root = join(import.meta.dirname, '../../..');

/**
 * `npm start`'s server in a child process, on a free port: the bundle `services/api/build.ts`
 * builds (`buildApi()` first). `exited` resolves with the signal that ended it, else its code.
 */
export async function startBundledApi(env: Record<string, string>) {
  const child = spawn(process.execPath, apiNodeArgs, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running after the test that gave up on it.
      child.kill('SIGKILL');
      reject(new Error(`no start in time:\n${output}`));
    }, 60_000);
    const look = () => {
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`exited before listening:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}
