/**
 * The API as `npm start` runs it: `src/main.ts` and the workspace packages it imports, bundled
 * by esbuild into one ES module, `dist/main.mjs` (with its source map); the packages from
 * node_modules stay imports, resolved from the repository's node_modules as before. A server
 * that ran its TypeScript through tsx kept tsx's loader thread and every compiled source in
 * memory (about 50–90 MB) and compiled them again at every start.
 *
 * `tsx services/api/build.ts` builds it (`npm run build --workspace @astra/api`).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

export const API_BUNDLE = join(import.meta.dirname, 'dist', 'main.mjs');

/** `node` arguments that run the built API as `npm start` does (stack traces in TypeScript). */
export const apiNodeArgs = ['--enable-source-maps', API_BUNDLE];

/**
 * Builds the bundle. Each file is written beside its place and renamed into it, so a server
 * starting meanwhile (tests build it in parallel) reads a whole bundle, old or new.
 */
export async function buildApi() {
  const { outputFiles } = await build({
    write: false,
    entryPoints: [join(import.meta.dirname, 'src', 'main.ts')],
    outfile: API_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
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
  await mkdir(dirname(API_BUNDLE), { recursive: true });
  for (const file of outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    await writeFile(partial, file.contents);
    await rename(partial, file.path);
  }
}

if (process.argv[1] === import.meta.filename) await buildApi();
