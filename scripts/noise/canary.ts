/**
 * Does a small cache-sensitive canary, timed between samples inside the
 * runtime, track the slow state of the work? And do GC, heap size, CPU speed
 * (an integer loop) or vCPU steal line up with it?
 *
 *   npx tsx scripts/noise/canary.ts [seconds=20] [runtimes=node,deno,bun]
 *
 * Runs scripts/noise/probe.mjs (one process per runtime, one after the other)
 * and prints, per runtime: the parse time's modes, the share and length of
 * slow spells, how well each canary separates slow from fast windows (AUC;
 * 0.5 = a coin) per window and over 20-window blocks, the Spearman
 * correlation with the parse time, and GC/heap/steal in slow vs fast windows.
 */
import { auc, blockMedians, f, loadavg, median, quantile, runProbe, slowLabels, slowSpells, spearman, type ProbeRuntime, type Window } from './lib.ts';

const seconds = Number(process.argv[2] ?? 20);
const runtimes = (process.argv[3] ?? 'node,deno,bun').split(',') as ProbeRuntime[];

export function analyse(label: string, w: Window[]): void {
  const parse = w.map((x) => x.parseUs);
  const { slow, cut, modes } = slowLabels(parse);
  const share = slow.filter(Boolean).length / slow.length;
  const spells = slowSpells(
    w.map((x) => x.t),
    slow,
  );
  console.log(`\n${label}: ${w.length} windows over ${f(w[w.length - 1]!.t / 1000)} s; parse modes: ${modes}; slow (> ${f(cut)} µs): ${f(share * 100, 0)}% of windows`);
  console.log(`  slow spells: ${spells.length}, median ${f(median(spells.length ? spells : [0]))} ms, p90 ${f(spells.length ? quantile(spells, 0.9) : 0)} ms, longest ${f(Math.max(0, ...spells))} ms`);
  const block = 20;
  const slowBlock = blockMedians(parse, block).map((p) => p > cut);
  for (const key of ['l3Ns', 'l2Ns', 'intNs', 'heapMB'] as const) {
    const v = w.map((x) => x[key]);
    const inSlow = v.filter((_, i) => slow[i]);
    const inFast = v.filter((_, i) => !slow[i]);
    console.log(
      `  ${key.padEnd(6)} fast ${f(median(inFast), 2).padStart(8)}  slow ${f(inSlow.length ? median(inSlow) : NaN, 2).padStart(8)}` +
        `  AUC/window ${f(auc(v, slow), 2)}  AUC/${block}-block ${f(auc(blockMedians(v, block), slowBlock), 2)}  Spearman ${f(spearman(v, parse), 2)}`,
    );
  }
  const gcIn = (sel: boolean) => w.filter((_, i) => slow[i] === sel).reduce((a, x) => a + x.gcs, 0) / Math.max(1, slow.filter((s) => s === sel).length);
  console.log(`  GC events per window: fast ${f(gcIn(false), 3)}, slow ${f(gcIn(true), 3)}`);
  const steals = w.filter((x) => x.stealMs !== undefined);
  if (steals.length > 1) {
    const total = steals[steals.length - 1]!.stealMs! - steals[0]!.stealMs!;
    console.log(`  machine steal time during the run: ${total} ms over ${f((steals[steals.length - 1]!.t - steals[0]!.t) / 1000)} s (both vCPUs)`);
  }
  // The time series itself, 250 ms medians, as in the issue.
  const per250: string[] = [];
  for (let t0 = 0; t0 < w[w.length - 1]!.t; t0 += 250) {
    const inWin = w.filter((x) => x.t >= t0 && x.t < t0 + 250);
    if (inWin.length) per250.push(f(median(inWin.map((x) => x.parseUs)), 0));
  }
  console.log(`  parse µs per 250 ms: ${per250.slice(0, 40).join(' ')}${per250.length > 40 ? ' …' : ''}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`canary: ${seconds} s per runtime; ${new Date().toISOString()}; load average before: ${loadavg()}`);
  for (const rt of runtimes) {
    const w = await runProbe(rt, seconds);
    analyse(`${rt} (load average after: ${loadavg()})`, w);
  }
}
