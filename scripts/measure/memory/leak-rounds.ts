/**
 * What each round of a memory-view run kept, per case × variant, as the
 * leak mark reads it (@rtbench/verdicts memory-growth.ts): the rounds, their
 * samples, what the engine held more per call from the collected warm to
 * the collected end (least round, all rounds together, most round), what
 * the resident set kept per call likewise, and the mark the rule gives
 * them now (the one saved with the run beside it). Nothing measured: it
 * reads a saved run.
 *
 *   npx tsx scripts/measure/memory/leak-rounds.ts <run.json>
 *
 * The figures in docs/memory.md ("The leak mark") come from a run of
 * test/fixtures/memory at the default settings:
 *   rtbench bench test/fixtures/memory --runtime node,deno,bun,workerd \
 *     --filter 'keeps 4 KB,keeps 16 KB,drops,holds nothing' --metrics memory --save <run.json>
 */
import { readFileSync } from 'node:fs';
import { parseRun } from '@rtbench/core/schema';
import { memoryGrowth, type ResidentSeries } from '../../../packages/verdicts/src/index.ts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npx tsx scripts/measure/memory/leak-rounds.ts <run.json>\n');
  process.exit(2);
}
const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const bytes = (x: number): string => `${Math.round(x)} B`;
const spread = (perRound: number[], total: number): string => (perRound.length ? `${bytes(Math.min(...perRound))} / ${bytes(total)} / ${bytes(Math.max(...perRound))}` : 'n/a');

process.stdout.write('case · variant: rounds, samples; held per call (least / all / most); resident kept per call (least / all / most); the mark now (saved)\n');
for (const r of run.results) {
  const rounds = r.rounds.flatMap((round) => {
    const m = round.memory;
    if (!m?.sampleBytes.length || m.readyBytes === undefined || m.endBytes === undefined) return [];
    const calls = m.sampleBytes.length * m.callsPerSample;
    const heap = round.metrics?.heap;
    const held = heap?.heldReadyBytes !== undefined && heap.heldEndBytes !== undefined ? heap.heldEndBytes - heap.heldReadyBytes : undefined;
    const series: ResidentSeries = { readyBytes: m.readyBytes, sampleBytes: m.sampleBytes, callsPerSample: m.callsPerSample, endBytes: m.endBytes, ...(m.collected ? { collected: true } : {}), ...(m.collected && held !== undefined ? { held: { readyBytes: heap!.heldReadyBytes!, endBytes: heap!.heldEndBytes! } } : {}) };
    return [{ samples: m.sampleBytes.length, calls, kept: m.endBytes - m.readyBytes, held, series }];
  });
  if (!rounds.length) continue;
  const calls = rounds.reduce((n, x) => n + x.calls, 0);
  const withHeld = rounds.filter((x) => x.held !== undefined);
  const held = withHeld.length === rounds.length ? spread(withHeld.map((x) => x.held! / x.calls), withHeld.reduce((n, x) => n + x.held!, 0) / calls) : 'not said';
  const kept = spread(rounds.map((x) => x.kept / x.calls), rounds.reduce((n, x) => n + x.kept, 0) / calls);
  const samples = rounds.map((x) => x.samples);
  const word = (leak: boolean | undefined): string => (leak === undefined ? 'n/a' : leak ? 'LEAK' : 'no');
  const now = word(memoryGrowth(rounds.map((x) => x.series))?.leak);
  process.stdout.write(`${r.caseId} · ${r.variantId}: ${rounds.length} rounds, ${Math.min(...samples)}–${Math.max(...samples)} samples; held ${held}; kept ${kept}; ${now} (saved: ${word(r.memory?.leak)})\n`);
}
