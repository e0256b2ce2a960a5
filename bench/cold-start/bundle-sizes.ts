/**
 * Prints the size of every cold-start program as each runtime gets it (the
 * bundle esbuild builds with that runtime's conditions), for the README's
 * curve: `npx tsx bench/cold-start/bundle-sizes.ts`.
 */
import { bundleProgram, type StartupMeasurement } from '@rtbench/host-timed';
import { join } from 'node:path';
import { cacheDir } from '../../packages/cli/src/paths.ts';
import { RUNNERS } from '../../packages/cli/src/runners.ts';
import suite from './index.ts';

const seen = new Set<string>();
const rows: string[] = ['| program | ' + RUNNERS.map((r) => r.runtime).join(' | ') + ' |', '|---|' + RUNNERS.map(() => '--:').join('|') + '|'];
for (const m of suite.measurements as StartupMeasurement[]) {
  const label = `${m.name}${m.params.size ? ` [${m.params.size}]` : ''}`;
  if (seen.has(label)) continue;
  seen.add(label);
  const program = typeof m.program === 'string' ? m.program : m.program();
  const sizes = await Promise.all(RUNNERS.map((r) => bundleProgram(program, r.bundle, r.runtime === 'workerd' ? 'workerd-handler' : 'print', `sizes-${r.runtime}`, join(cacheDir, 'programs'))));
  rows.push(`| ${label} | ${sizes.map((s) => `${(s.bytes / 1024).toFixed(s.bytes < 10_240 ? 1 : 0)} KB`).join(' | ')} |`);
}
console.log(rows.join('\n'));
