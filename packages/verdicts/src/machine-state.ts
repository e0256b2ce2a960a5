/**
 * What a run's machine state says about its figures: how much of the machine
 * other work used, and whether that changed during the run. Pure: it reads the
 * points the host saved (core schema's machine state) and decides nothing else.
 */
import type { HostInfo } from '@rtbench/core/schema';
import { median } from '@rtbench/stats';

/** One reading: cores busy with other work (absent where the run's own CPU was not readable), cores stolen, the load. */
export interface MachineReading {
  atMs: number;
  load1: number;
  busy: number;
  steal: number;
  others?: number;
}

export const MACHINE_STATE_DEFAULTS = {
  /**
   * A change between thirds of the run that is worth a warning, in cores. A
   * half-busy neighbour (the project's antagonist) adds about half a core; a
   * quiet machine's thirds differ by a few hundredths.
   */
  changeCores: 0.3,
  /** Other work that makes the machine "shared" for the whole run, in cores on average. */
  sharedCores: 0.5,
  /** Fewer readings than this (a run of a few seconds) are too few to judge a change. */
  minReadings: 6,
};

export interface MachineSummary {
  /** Mean cores of other work over the run (absent where it was not readable). */
  othersMean?: number;
  stealMean: number;
  load1: { min: number; max: number };
  /** Thirds of the run, in order, as medians: the change is read from them. */
  thirds?: { others?: [number, number, number]; steal: [number, number, number] };
  /** The sentence a report prints when other work or steal changed during the run; absent when it did not (or the run was too short to tell). */
  changed?: string;
  /** The sentence a report prints when other work used much of the machine throughout. */
  shared?: string;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const cores = (x: number): string => x.toFixed(2);

function thirdsOf(values: readonly number[]): [number, number, number] {
  const n = values.length;
  const cut = (i: number): number => Math.round((n * i) / 3);
  return [median(values.slice(0, cut(1))), median(values.slice(cut(1), cut(2))), median(values.slice(cut(2)))];
}

/** The least and the most of `xs`, read in one pass (a spread of a saved run's readings could pass the stack's bound). */
function range(xs: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    // Stryker disable next-line EqualityOperator: a tie sets the same value again
    if (x < min) min = x;
    // Stryker disable next-line EqualityOperator: a tie sets the same value again
    if (x > max) max = x;
  }
  return { min, max };
}

function spread(t: readonly number[]): number {
  const { min, max } = range(t);
  return max - min;
}

/** Summarises a run's readings; undefined when there are none. */
export function summarizeMachine(points: readonly MachineReading[], cpuCount: number, options: Partial<typeof MACHINE_STATE_DEFAULTS> = {}): MachineSummary | undefined {
  if (!points.length) return undefined;
  const o = { ...MACHINE_STATE_DEFAULTS, ...options };
  const others = points.every((p) => p.others !== undefined) ? points.map((p) => p.others!) : undefined;
  const steal = points.map((p) => p.steal);
  const loads = points.map((p) => p.load1);
  const summary: MachineSummary = {
    ...(others ? { othersMean: mean(others) } : {}),
    stealMean: mean(steal),
    load1: range(loads),
  };
  if (summary.othersMean !== undefined && summary.othersMean >= o.sharedCores) {
    summary.shared = `other work used ${cores(summary.othersMean)} of ${cpuCount} cores on average during the run (load ${summary.load1.min.toFixed(1)}–${summary.load1.max.toFixed(1)}): absolute figures are the shared machine's; ratios taken in turn cancel most of it`;
  }
  if (points.length < o.minReadings) return summary;
  const thirds = { ...(others ? { others: thirdsOf(others) } : {}), steal: thirdsOf(steal) };
  summary.thirds = thirds;
  const parts: string[] = [];
  if (thirds.others && spread(thirds.others) >= o.changeCores) parts.push(`other work ${thirds.others.map(cores).join(' → ')} cores`);
  if (spread(thirds.steal) >= o.changeCores) parts.push(`steal ${thirds.steal.map(cores).join(' → ')} cores`);
  if (parts.length) summary.changed = `the machine changed during the run (by thirds: ${parts.join('; ')}): absolute figures moved with it; ratios taken in turn cancel most of it`;
  return summary;
}

/** Whether two runs were taken in different machine states, as a sentence; undefined when they were alike or one has no state. */
export function machineStatesDiffer(a: readonly MachineReading[] | undefined, b: readonly MachineReading[] | undefined, cpuCount: number, names: [string, string], options: Partial<typeof MACHINE_STATE_DEFAULTS> = {}): string | undefined {
  if (!a?.length || !b?.length) return undefined;
  const o = { ...MACHINE_STATE_DEFAULTS, ...options };
  const sa = summarizeMachine(a, cpuCount, o)!;
  const sb = summarizeMachine(b, cpuCount, o)!;
  const parts: string[] = [];
  if (sa.othersMean !== undefined && sb.othersMean !== undefined && Math.abs(sa.othersMean - sb.othersMean) >= o.changeCores) {
    parts.push(`other work used ${cores(sa.othersMean)} cores during ${names[0]}, ${cores(sb.othersMean)} during ${names[1]}`);
  }
  if (Math.abs(sa.stealMean - sb.stealMean) >= o.changeCores) parts.push(`steal ${cores(sa.stealMean)} vs ${cores(sb.stealMean)} cores`);
  return parts.length ? `different machine states: ${parts.join('; ')}` : undefined;
}

/** The facts of a host that stay put during a run, as one line: CPU, cores, kernel, and the governor and CPU quota where they were readable. */
export function machineText(host: HostInfo): string {
  const extra = [host.machine?.governor && `governor ${host.machine.governor}`, host.machine?.cpuQuota && host.machine.cpuQuota !== 'none' && `CPU quota ${host.machine.cpuQuota}`].filter(Boolean);
  return `${host.cpuModel} (${host.cores} cores), ${host.os} ${host.release}${extra.length ? `, ${extra.join(', ')}` : ''}`;
}

/**
 * Where two runs' hosts differ in what stays put during a run, a sentence each:
 * another CPU or core count, another kernel, another governor or CPU quota
 * (compared only where both runs could read it). Empty when they agree.
 */
export function hostsDiffer(a: HostInfo, b: HostInfo): string[] {
  const out: string[] = [];
  if (a.cpuModel !== b.cpuModel || a.cores !== b.cores) out.push(`different hosts: ${a.cpuModel} (${a.cores} cores) vs ${b.cpuModel} (${b.cores} cores)`);
  if (a.os !== b.os || a.release !== b.release) out.push(`different kernels: ${a.os} ${a.release} vs ${b.os} ${b.release}`);
  const [ga, gb] = [a.machine?.governor, b.machine?.governor];
  if (ga && gb && ga !== gb) out.push(`different CPU governors: ${ga} vs ${gb}`);
  const [qa, qb] = [a.machine?.cpuQuota, b.machine?.cpuQuota];
  if (qa && qb && qa !== qb) out.push(`different CPU quotas of the host's cgroup: ${qa} vs ${qb}`);
  return out;
}
