// @ts-check
/**
 * `npm start`: builds what changed, then runs the API (which serves the web app).
 *
 * Each build (the web app by Vite, the API by esbuild) has a fingerprint: a SHA-256 of the paths
 * and contents of its inputs (sources, configs, the lockfile). After a build the fingerprint is
 * written into its output (`dist/.build-stamp`); a start whose fingerprint matches the stamp, and
 * whose output is there, skips that build. Contents rather than modification times: a checkout or
 * a touched file that changes nothing rebuilds nothing. A build that removes its output (Vite
 * empties `web/dist`) removes the stamp with it, so the next start builds again.
 *
 * Plain JavaScript so that it starts at Node's own speed (no TypeScript loader).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const STAMP = '.build-stamp';

/** Directories never read as inputs. */
const SKIPPED = new Set(['node_modules', 'dist', 'test', 'e2e']);

/** The workspace packages' sources: the API bundles all of them. */
const packages = readdirSync(join(ROOT, 'packages')).flatMap((name) => [
  `packages/${name}/src`,
  `packages/${name}/package.json`,
]);

/**
 * @typedef {object} Build
 * @property {string} name
 * @property {string[]} command what builds it (run in the repository's root)
 * @property {string[]} inputs files and directories (relative to the root) its output depends on
 * @property {string} output its output directory
 * @property {string} entry the file of the output that a finished build always has
 */

/** @type {Build[]} */
export const BUILDS = [
  {
    name: 'web app',
    command: ['npm', 'run', 'build', '--workspace', 'web', '--if-present'],
    inputs: [
      'web/src',
      'web/public',
      'web/index.html',
      'web/vite.config.ts',
      'web/precompress.ts',
      'web/routeTable.ts',
      'web/tsconfig.json',
      'web/package.json',
      'packages/contracts/src',
      'packages/contracts/package.json',
      'package-lock.json',
    ],
    output: 'web/dist',
    entry: 'index.html',
  },
  {
    name: 'API',
    command: ['npm', 'run', 'build', '--workspace', '@astra/api'],
    inputs: [
      'services/api/src',
      'services/api/build.ts',
      'services/api/package.json',
      ...packages,
      'tsconfig.json',
      'package-lock.json',
    ],
    output: 'services/api/dist',
    entry: 'main.mjs',
  },
];

/**
 * The fingerprint of a build's inputs: every file under them (dotfiles and SKIPPED directories
 * aside), by path and content, in a stable order. A missing input counts as absent.
 * @param {string} root
 * @param {readonly string[]} inputs
 */
export function fingerprint(root, inputs) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} path */
  const collect = (path) => {
    if (!existsSync(path)) return;
    if (!statSync(path).isDirectory()) {
      files.push(path);
      return;
    }
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      collect(join(path, entry.name));
    }
  };
  for (const input of inputs) collect(join(root, input));
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${relative(root, file).split(sep).join('/')}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Whether a build is needed: its output's entry is missing, or its stamp is missing or differs.
 * @param {string} outputDir
 * @param {string} entry
 * @param {string} currentFingerprint
 */
export function needsBuild(outputDir, entry, currentFingerprint) {
  const stamp = join(outputDir, STAMP);
  if (!existsSync(join(outputDir, entry)) || !existsSync(stamp)) return true;
  return readFileSync(stamp, 'utf8').trim() !== currentFingerprint;
}

/** @param {string} outputDir @param {string} currentFingerprint */
export function writeStamp(outputDir, currentFingerprint) {
  writeFileSync(join(outputDir, STAMP), `${currentFingerprint}\n`);
}

/** Builds each output whose inputs changed; throws when a build fails. */
export function buildChanged(root = ROOT) {
  for (const build of BUILDS) {
    const output = join(root, build.output);
    const current = fingerprint(root, build.inputs);
    if (!needsBuild(output, build.entry, current)) {
      console.log(`${build.name}: unchanged since its last build (${build.output})`);
      continue;
    }
    const [command = '', ...args] = build.command;
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`Building the ${build.name} failed`);
    // `--if-present`: a workspace without a build script has no output to stamp.
    if (existsSync(join(output, build.entry))) writeStamp(output, current);
  }
}

if (process.argv[1] === import.meta.filename) {
  try {
    buildChanged();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // In this process rather than a child: one Node start fewer, and the API's own signal
  // handlers receive npm's SIGINT/SIGTERM directly. Stack traces in TypeScript, as
  // `--enable-source-maps` gives them.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(join(ROOT, 'services/api/dist/main.mjs')).href);
}
