/**
 * The API as `npm start` runs it: `src/main.ts` and the workspace packages it imports, bundled
 * by esbuild into ES modules in `dist/` (`main.mjs`, and a chunk for each module imported only
 * when it is needed, such as the KurrentDB adapter, whose client loads a native module), with
 * source maps; the packages from node_modules stay imports, resolved from the repository's
 * node_modules as before. A server
 * that ran its TypeScript through tsx kept tsx's loader thread and every compiled source in
 * memory (about 50–90 MB) and compiled them again at every start.
 *
 * `tsx services/api/build.ts` builds it (`npm run build --workspace @astra/api`).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

const DIST = join(import.meta.dirname, 'dist');
export const API_BUNDLE = join(DIST, 'main.mjs');

/** `node` arguments that run the built API as `npm start` does (stack traces in TypeScript). */
export const apiNodeArgs = ['--enable-source-maps', API_BUNDLE];

/**
 * Builds the bundle. Each file is written beside its place and renamed into it, the chunks before
 * `main.mjs`, so a server starting meanwhile (tests build it in parallel) reads a whole bundle,
 * old or new; chunks of older builds are removed after.
 */
export async function buildApi() {
  const { outputFiles } = await build({
    write: false,
    entryPoints: [join(import.meta.dirname, 'src', 'main.ts')],
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Node maps stack traces with the mappings alone; the sources stay on disk, not in the heap.
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-stay-imports',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^[^./]/ }, ({ path }) =>
            path.startsWith('@astra/') ? undefined : { external: true },
          );
        },
      },
    ],
  });
  const entry = (path: string) => basename(path).startsWith('main.mjs');
  const files = [
    ...outputFiles.filter((f) => !entry(f.path)),
    ...outputFiles.filter((f) => entry(f.path)),
  ];
  await mkdir(join(DIST, 'chunks'), { recursive: true });
  for (const file of files) {
    const partial = `${file.path}.${randomUUID()}.partial`;
    await writeFile(partial, file.contents);
    await rename(partial, file.path);
  }
  const built = new Set(files.map((f) => basename(f.path)));
  for (const name of await readdir(join(DIST, 'chunks'))) {
    if (!built.has(name) && !name.endsWith('.partial')) await rm(join(DIST, 'chunks', name));
  }
}

if (process.argv[1] === import.meta.filename) await buildApi();
