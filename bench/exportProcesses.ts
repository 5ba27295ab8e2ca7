import { execFile, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExportFormat } from '@astra/contracts';

/**
 * The ledger export measured as people run it: `npm run ledger:export` in its own process, and
 * the HTTP export read by a client in another process (a browser or `curl` is never inside the
 * server). Run as a script (`node --import tsx bench/exportProcesses.ts URL COOKIE`), this file is
 * that client: it reads the body, drops it and prints what it got as JSON.
 */

export interface Drained {
  status: number;
  bytes: number;
  trailers: NodeJS.Dict<string>;
  headers: NodeJS.Dict<string | string[]>;
  /** From sending the request to the body's end. */
  seconds: number;
}

/** GET on loopback with a cookie: the body counted and dropped, the trailers kept. */
export function drain(url: string, cookie: string) {
  const started = performance.now();
  return new Promise<Drained>((resolve, reject) => {
    const req = request(url, { headers: { cookie } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          trailers: res.trailers,
          headers: res.headers,
          seconds: (performance.now() - started) / 1000,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `drain` in a client process of its own (timed there, from its request on: the process's start is
 * not counted); resolves when that process has read the whole body.
 */
export function drainElsewhere(url: string, cookie: string) {
  return new Promise<Drained>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, url, cookie],
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Drained)),
    );
  });
}

/**
 * `npm run ledger:export -- --format F` on a database (the data directory holds its keys' secret):
 * what the command says on stderr.
 */
export function exportByCli(databaseUrl: string, format: ExportFormat, dataDir: string) {
  return new Promise<{ sha256: string; rows: number; bytes: number; seconds: number }>(
    (resolve, reject) => {
      const child = spawn('npm', ['run', '--silent', 'ledger:export', '--', '--format', format], {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const said = /^([0-9a-f]{64}) {2}(\d+) rows {2}(\d+) bytes {2}in ([\d.]+) s$/m.exec(stderr);
        if (code !== 0 || !said) {
          reject(new Error(`ledger:export exited ${code}: ${stderr}`));
          return;
        }
        resolve({
          sha256: said[1]!,
          rows: Number(said[2]),
          bytes: Number(said[3]),
          seconds: Number(said[4]),
        });
      });
    },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, cookie] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await drain(url!, cookie!)));
}
