import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const file = join(import.meta.dirname, '../docs/performance.md');

export const machine = () => {
  let postgres = 'not reachable';
  try {
    postgres = execFileSync(
      'psql',
      ['-h', '127.0.0.1', '-U', 'postgres', '-Atc', 'show server_version'],
      { encoding: 'utf8' },
    ).trim();
  } catch {}
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.versions.node}; PostgreSQL ${postgres}`;
};

export const today = () => new Date().toISOString().slice(0, 10);

export interface Figure {
  what: string;
  measured: string;
  target: string;
  met: boolean | null;
}

/** Replaces one benchmark's section of docs/performance.md (other sections stay as they were). */
export async function writeSection(id: string, title: string, figures: Figure[], notes: string) {
  const header =
    '# Performance\n\nFigures written by `npm run bench` (each section by its own benchmark; run one with `npm run bench -- <name>`). Targets come from the issues; a figure is reported whether or not it meets its target.\n';
  let text = await readFile(file, 'utf8').catch(() => header);
  const rows = figures
    .map(
      (f) =>
        `| ${f.what} | ${f.measured} | ${f.target} | ${f.met === null ? '—' : f.met ? 'yes' : '**no**'} |`,
    )
    .join('\n');
  const section = `<!-- bench:${id} -->\n## ${title}\n\nMeasured ${today()} on ${machine()}.\n\n| figure | measured | target | met |\n|---|---|---|---|\n${rows}\n\n${notes.trim()}\n<!-- /bench:${id} -->`;
  const pattern = new RegExp(`<!-- bench:${id} -->[\\s\\S]*?<!-- /bench:${id} -->`);
  text = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`;
  await writeFile(file, text);
  console.log(section);
}
