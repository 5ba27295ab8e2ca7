import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text formats worth compressing; images, fonts and archives are compressed already. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

const compressions = [
  {
    suffix: '.br',
    compress: (data: Buffer) =>
      promisify(brotliCompress)(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
  },
  { suffix: '.gz', compress: (data: Buffer) => promisify(gzip)(data, { level: 9 }) },
];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `file.br` (brotli, maximum quality) and `file.gz` (gzip, level 9) beside every text file
 * of the build of 1 KB or more, once, at build time: the API serves them by `Accept-Encoding`
 * (`services/api/src/http/webApp.ts`) and never compresses while answering. A copy that would not
 * be smaller is not written.
 */
export async function precompress(dir: string): Promise<void> {
  await precompressFiles((await filesUnder(dir)).filter((f) => TEXT_FILE.test(f)));
}

/** The same, for files written after the build's own (the prerendered pages). */
export async function precompressFiles(files: string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_BYTES) return;
      for (const { suffix, compress } of compressions) {
        const compressed = await compress(data);
        if (compressed.length < data.length) await writeFile(file + suffix, compressed);
      }
    }),
  );
}

/** The Vite plugin: compresses the output directory once the build has written it. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'astra-precompress',
    apply: 'build',
    configResolved(config) {
      // `resolve`, not `join`: `--outDir /abs/path` is absolute and must not land under root.
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompress(outDir);
    },
  };
}
