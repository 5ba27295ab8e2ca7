// @ts-check
/**
 * `npm run check`: biome and the three TypeScript projects, two at a time. Each is one
 * single-threaded process: the server's project, the largest, takes one core, and the others
 * follow each other on the second, which halves the check's time on two cores. Each one's output
 * is printed whole when it ends; the check fails when any of them fails.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Two lanes, each run in order: about the same time in each. */
const lanes = [
  [['tsc', '-p', 'tsconfig.json']],
  [
    ['biome', 'check', '.'],
    ['tsc', '-p', 'web/tsconfig.json'],
    ['tsc', '-p', 'web/e2e/tsconfig.json'],
  ],
];

/** @param {string[]} command @returns {Promise<boolean>} whether it passed */
function run([name = '', ...args]) {
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', name), args, { cwd: ROOT });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`> ${[name, ...args].join(' ')}\n${Buffer.concat(output)}`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(
  lanes.map(async (lane) => {
    for (const command of lane) if (!(await run(command))) return false;
    return true;
  }),
);
process.exitCode = passed.every(Boolean) ? 0 : 1;
