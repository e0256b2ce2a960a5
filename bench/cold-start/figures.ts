/**
 * The README's tables from a saved cold-start run: start-up per program and
 * runtime, and start-up split into before-execution + top level (per process:
 * start-up minus its top level). `npx tsx bench/cold-start/figures.ts results/<run>.json`
 */
import { readFileSync } from 'node:fs';
import { parseRun, type CaseResult } from '@rtbench/core/schema';
import { quantile } from '@rtbench/stats';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/cold-start/figures.ts <run.json>');
const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const get = (id: string, v: string): CaseResult | undefined => run.results.find((x) => x.caseId === id && x.variantId === v);
const fmt = (xs: number[] | undefined): string => {
  if (!xs?.length) return '—';
  const sorted = [...xs].sort((a, b) => a - b);
  return `${Math.round(quantile(sorted, 0.5))} (${Math.round(quantile(sorted, 0.25))}–${Math.round(quantile(sorted, 0.75))})`;
};
const samples = (r: CaseResult | undefined): number[] | undefined => (r?.rounds.length ? r.rounds.map((x) => x.samples[0]!) : undefined);
const programs: [string, string][] = [['empty', ''], ['generated', 'size=10kb'], ['generated', 'size=100kb'], ['generated', 'size=1mb'], ['generated', 'size=5mb'], ['react-dom/server renderToString', ''], ['zod schema + parse', '']];
const id = (group: string, name: string, params: string[]): string => `${group} / ${name}${params.filter(Boolean).length ? ` [${params.filter(Boolean).join(', ')}]` : ''}`;
const label = (name: string, p: string): string => `\`${name}${p ? ` [${p}]` : ''}\``;

console.log('| program | node | deno | bun | workerd (process) | workerd (isolate) |\n|---|--:|--:|--:|--:|--:|');
for (const [n, p] of programs) {
  const cells = ['node', 'deno', 'bun', 'workerd'].map((v) => fmt(samples(get(id('process start', n, [p, 'cache=none']), v))));
  console.log(`| ${label(n, p)} | ${cells.join(' | ')} | ${fmt(samples(get(id('isolate start', n, [p]), 'workerd')))} |`);
}
for (const cache of ['none', 'warm']) {
  console.log(`\ncache=${cache}: before execution + top level\n| program | node | deno | bun |\n|---|--:|--:|--:|`);
  for (const [n, p] of programs) {
    if (cache === 'warm' && n === 'empty') continue;
    const cells = ['node', 'deno', 'bun'].map((v) => {
      const start = get(id('process start', n, [p, `cache=${cache}`]), v);
      const top = get(id('process start', n, [p, `cache=${cache}`, 'metric=top level']), v);
      if (!start?.rounds.length || !top?.rounds.length) return '—';
      const topOf = new Map(top.rounds.map((x) => [x.round, x.samples[0]!]));
      const before = start.rounds.filter((x) => topOf.has(x.round)).map((x) => x.samples[0]! - topOf.get(x.round)!);
      return `${fmt(before)} + ${fmt(samples(top))}`;
    });
    console.log(`| ${label(n, p)} | ${cells.join(' | ')} |`);
  }
}
