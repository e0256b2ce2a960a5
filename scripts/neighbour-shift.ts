/**
 * What a busy neighbour does to a table's paired ratios, from saved runs (no
 * new measurement): per cell, the geometric mean of the ratios in the runs
 * made beside the neighbour against that of the runs made alone, grouped by
 * runtime and document size; with the count of cells that moved up.
 *
 *   npx tsx scripts/neighbour-shift.ts --alone a1.json a2.json --beside b1.json b2.json
 *
 * The runs come from `scripts/table-targets.ts` and `--antagonist` (each
 * prints where it saved its two runs).
 */
import { readFileSync } from 'node:fs';
import { parseRun } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { tableRatios } from './lib.ts';

const argv = process.argv.slice(2);
const listAfter = (flag: string): string[] => {
  const i = argv.indexOf(flag);
  if (i < 0) return [];
  const end = argv.findIndex((a, j) => j > i && a.startsWith('--'));
  return argv.slice(i + 1, end < 0 ? undefined : end);
};
const alone = listAfter('--alone');
const beside = listAfter('--beside');
if (!alone.length || !beside.length) {
  console.error('usage: npx tsx scripts/neighbour-shift.ts --alone a1.json [a2.json …] --beside b1.json [b2.json …]');
  process.exit(2);
}

/** ln(ratio) per "case · runtime" cell of one saved run. */
function logRatios(path: string): Map<string, number> {
  const cells = tableRatios(benchView(parseRun(JSON.parse(readFileSync(path, 'utf8')), path)));
  return new Map([...cells].map(([cell, { ratio }]) => [cell, Math.log(ratio)]));
}

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Per cell, the mean log ratio over runs (cells missing from any run are left out). */
function geomeans(paths: readonly string[]): Map<string, number> {
  const runs = paths.map(logRatios);
  const out = new Map<string, number>();
  for (const cell of runs[0]!.keys()) {
    const values = runs.map((r) => r.get(cell));
    if (values.every((v): v is number => v !== undefined)) out.set(cell, meanOf(values));
  }
  return out;
}

const a = geomeans(alone);
const b = geomeans(beside);
const groups = new Map<string, number[]>();
for (const [cell, la] of a) {
  const lb = b.get(cell);
  if (lb === undefined) continue;
  const [caseId, runtime] = cell.split(' · ') as [string, string];
  const size = /size=([^\]]+)/.exec(caseId)?.[1];
  const group = size ? `${runtime} ${size}` : runtime;
  groups.set(group, [...(groups.get(group) ?? []), lb - la]);
}
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * (Math.exp(x) - 1)).toFixed(1)}%`;
console.log(`ratios beside the neighbour against alone (${beside.length} run(s) against ${alone.length})`);
for (const [group, shifts] of groups) {
  console.log(`  ${group.padEnd(16)} ${String(shifts.length).padStart(3)} cells  mean ${pct(meanOf(shifts)).padStart(6)}  higher in ${shifts.filter((s) => s > 0).length}  range ${pct(Math.min(...shifts))} to ${pct(Math.max(...shifts))}`);
}
