/**
 * Prints the size of every cold-start program as each runtime gets it (the
 * bundle esbuild builds with that runtime's conditions), for the README's
 * curve: `npx tsx bench/cold-start/bundle-sizes.ts`.
 */
import { bundleProgram, generatedModules, startupWrapper, type StartupMeasurement } from '@rtbench/host-timed';
import { join } from 'node:path';
import { cacheDir } from '@rtbench/suite-loader';
import { runtimePlugins } from '@rtbench/runtime-registry';
import suite from './index.ts';

const seen = new Set<string>();
const rows: string[] = ['| program | ' + runtimePlugins().map((r) => r.name).join(' | ') + ' |', '|---|' + runtimePlugins().map(() => '--:').join('|') + '|'];
for (const m of suite.measurements as StartupMeasurement[]) {
  const label = `${m.name}${m.params.size ? ` [${m.params.size}]` : ''}`;
  if (seen.has(label)) continue;
  seen.add(label);
  const programDir = join(cacheDir, 'programs');
  const program = typeof m.program === 'string' ? m.program : m.program(generatedModules(programDir));
  const sizes = await Promise.all(runtimePlugins().map((r) => bundleProgram(program, r, startupWrapper(r), `sizes-${r.name}`, programDir, undefined)));
  rows.push(`| ${label} | ${sizes.map((s) => `${(s.bytes / 1024).toFixed(s.bytes < 10_240 ? 1 : 0)} KB`).join(' | ')} |`);
}
console.log(rows.join('\n'));
