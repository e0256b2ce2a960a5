/**
 * What the host-clock check (packages/run corroborate.ts) costs a run: for
 * every lockstep set of a saved run, host readings consistent with its
 * samples (each sample's command sent 0.1 ms before it started, its answer
 * read 0.1 ms after its batch ended), then the check over every set, 200
 * times; prints the host's time per run against the run's wall time, and
 * that no set of the honest run failed it. The host's other part, two
 * performance.now() reads per sample, is timed the same way.
 *
 *   npx tsx scripts/corroborate-cost.ts run.json
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RoundRecord } from '@rtbench/core/schema';
import type { SampleReading } from '@rtbench/process';
import { corroborate } from '../packages/run/src/measurers/corroborate.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx scripts/corroborate-cost.ts <run.json>');
  process.exit(2);
}
const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const sets: { record: RoundRecord; readings: SampleReading[] }[] = [];
for (const r of run.results) {
  for (const record of r.rounds) {
    const starts = record.sampleStartMs;
    if (!record.lockstep || !starts) continue;
    const readings = record.samples.map((ns, i): SampleReading => {
      const sentMs = starts[i]! - 0.1;
      const receivedMs = starts[i]! + (ns * record.iterationsPerSample) / 1e6 + 0.1;
      return { ns, waitedNs: (receivedMs - sentMs) * 1e6, sentMs, receivedMs };
    });
    sets.push({ record, readings });
  }
}
const samples = sets.reduce((n, s) => n + s.readings.length, 0);
const failed = sets.filter((s) => corroborate(s.record, s.readings) !== undefined).length;
const reps = 200;
let t0 = performance.now();
for (let k = 0; k < reps; k++) for (const s of sets) corroborate(s.record, s.readings);
const checkMs = (performance.now() - t0) / reps;
t0 = performance.now();
for (let k = 0; k < reps; k++) for (let i = 0; i < samples; i++) {
    performance.now();
    performance.now();
  }
const readsMs = (performance.now() - t0) / reps;
const wallMs = run.timing?.wallMs;
console.log(`${file}: ${sets.length} lockstep sets, ${samples} samples; ${failed} sets failed the check (an honest run: 0)`);
console.log(`  the check over every set: ${checkMs.toFixed(3)} ms per run; two clock reads per sample: ${readsMs.toFixed(3)} ms per run${wallMs ? `; together ${(((checkMs + readsMs) / wallMs) * 100).toFixed(4)}% of the run's ${(wallMs / 1e3).toFixed(1)} s` : ''}`);
