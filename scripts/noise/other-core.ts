/**
 * What does the other vCPU's work do to this one? The probe (node@26) is
 * pinned to CPU 0 while CPU 1 runs, in turn: nothing of ours, an integer spin
 * (no memory traffic), a 1 MB random walk (private-cache traffic), and a
 * 64 MB streaming walk (last-level cache and memory traffic); last, the
 * integer spin pinned to CPU 0 itself (time-sharing the core). Conditions
 * alternate in 4 s segments, twice through, so slow drifts of the machine hit
 * all of them. Only processes started here are stopped (by PID).
 *
 *   npx tsx scripts/noise/other-core.ts [segmentSeconds=4] [cycles=2]
 *
 * Reading the result: if an integer spin on CPU 1 slows CPU 0's L2-resident
 * walk and parse, the two vCPUs share a physical core's private caches (SMT
 * siblings on the host). Separate cores share only the last-level cache and
 * memory, which the streaming antagonist loads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { binaries, f, loadavg, median, quantile, runProbe, type Window } from './lib.ts';

const segment = Number(process.argv[2] ?? 4);
const cycles = Number(process.argv[3] ?? 2);

// Antagonists: tiny programs for the project's node, run with -e.
const antagonists: Record<string, string> = {
  'int spin': 'let s=0;for(;;){for(let i=0;i<1e7;i++)s=(s+Math.imul(i,2654435761))|0;if(s===0.5)console.log(s)}',
  '1 MB walk':
    'const n=1<<18,a=new Int32Array(n);for(let i=0;i<n;i++)a[i]=(i*40503+7919)%n;let p=0;for(;;){for(let i=0;i<1e7;i++)p=a[p];if(p===-1)console.log(p)}',
  '64 MB stream':
    'const n=1<<24,a=new Int32Array(n);let s=0;for(;;){for(let i=0;i<n;i+=16){a[i]+=1;s+=a[i]}if(s===0.5)console.log(s)}',
};

type Condition = { name: string; cpu?: number; program?: string };
const conditions: Condition[] = [
  { name: 'CPU 1: nothing of ours' },
  { name: 'CPU 1: int spin', cpu: 1, program: antagonists['int spin'] },
  { name: 'CPU 1: 1 MB walk', cpu: 1, program: antagonists['1 MB walk'] },
  { name: 'CPU 1: 64 MB stream', cpu: 1, program: antagonists['64 MB stream'] },
  { name: 'CPU 0 (same core): int spin', cpu: 0, program: antagonists['int spin'] },
];

function startAntagonist(c: Condition): ChildProcess | undefined {
  if (!c.program) return undefined;
  return spawn('taskset', ['-c', String(c.cpu), binaries.node, '-e', c.program], { stdio: 'ignore' });
}

const results = new Map<string, Window[]>(conditions.map((c) => [c.name, []]));
console.log(`other-core: ${segment} s segments x ${cycles} cycles; ${new Date().toISOString()}; load average before: ${loadavg()}`);
for (let cycle = 0; cycle < cycles; cycle++) {
  for (const c of conditions) {
    const child = startAntagonist(c);
    await new Promise((r) => setTimeout(r, 300)); // let the antagonist reach its loop
    try {
      results.get(c.name)!.push(...(await runProbe('node', segment, 0)));
    } finally {
      if (child?.pid) process.kill(child.pid); // only the process started here
    }
  }
}
console.log(`load average after: ${loadavg()}`);
// The integer loop is left out: in these pinned 4 s processes V8's optimizing
// compiler (a background thread on the same CPU) often had not run yet.
console.log('| CPU 1 / CPU 0 runs | parse µs median | p10–p90 | windows ≥ 1.3× the fast p10 | L3 walk ns | L2 walk ns |');
console.log('|---|--:|--:|--:|--:|--:|');
const fast = quantile(
  [...results.values()].flat().map((w) => w.parseUs),
  0.1,
);
for (const [name, w] of results) {
  const p = w.map((x) => x.parseUs);
  const slowShare = p.filter((x) => x >= 1.3 * fast).length / p.length;
  console.log(
    `| ${name} | ${f(median(p))} | ${f(quantile(p, 0.1))}–${f(quantile(p, 0.9))} | ${f(slowShare * 100, 0)}% | ${f(median(w.map((x) => x.l3Ns)))} | ${f(median(w.map((x) => x.l2Ns)), 2)} |`,
  );
}
