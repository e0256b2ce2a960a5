/**
 * The machine's state over a run, read by the host once a second: the load,
 * the cores busy, the cores the hypervisor stole, and the cores busy with work
 * that is not this run's. A ratio taken in turn cancels most of a neighbour's
 * effect, an absolute median does not: the saved run keeps the state so that a
 * report can say when the machine changed under a run, or between two runs.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { MAX_MACHINE_POINTS, type MachinePoint, type MachineState } from '@rtbench/core/schema';
import { containment } from '@rtbench/process';

/** The aggregate CPU counters of /proc/stat, in clock ticks. */
export interface CpuTicks {
  busy: number;
  steal: number;
  total: number;
}

/** The "cpu " line of /proc/stat: user nice system idle iowait irq softirq steal (guest time is inside user already). */
export function parseCpuTicks(procStat: string): CpuTicks | undefined {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return undefined;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal };
}

/** What the watch reads; the real machine's by default, a scripted one in tests. */
export interface MachineReader {
  /** /proc/stat's text, undefined where there is none. */
  procStat(): string | undefined;
  load1(): number;
  /** CPU this run has used so far (the CLI and every process it started), µs; undefined when it cannot be read live. */
  ownMicros(): number | undefined;
  cores(): number;
  nowMs(): number;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const realMachine: MachineReader = {
  procStat: () => readText('/proc/stat'),
  load1: () => os.loadavg()[0] ?? 0,
  ownMicros: () => {
    const cells = containment().cpuUsageMicros();
    if (cells === undefined) return undefined;
    const self = process.cpuUsage();
    return cells + self.user + self.system;
  },
  cores: () => os.cpus().length,
  nowMs: () => performance.now(),
};

/** The facts that do not change during a run: frequency, governor, the host's CPU quota, where readable. */
function staticFacts(): Pick<MachineState, 'cpuMHz' | 'governor' | 'cpuQuota'> {
  const khz = Number(readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq'));
  const fromCpuinfo = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(readText('/proc/cpuinfo') ?? '')?.[1]);
  const cpuMHz = khz > 0 ? khz / 1000 : fromCpuinfo > 0 ? fromCpuinfo : undefined;
  const governor = readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor')?.trim();
  return { ...(cpuMHz ? { cpuMHz: Math.round(cpuMHz) } : {}), ...(governor ? { governor } : {}), ...cpuQuota() };
}

/** The CPU quota of the cgroup the host runs in: cgroup v2's cpu.max, else v1's cfs quota and period. */
function cpuQuota(): { cpuQuota?: string } {
  const own = /^0::(.*)$/m.exec(readText('/proc/self/cgroup') ?? '')?.[1];
  for (const root of ['/sys/fs/cgroup', '/sys/fs/cgroup/unified']) {
    const max = own !== undefined ? readText(`${root}${own === '/' ? '' : own}/cpu.max`)?.trim() : undefined;
    if (max) return { cpuQuota: max.startsWith('max') ? 'none' : max };
  }
  const quota = readText('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')?.trim();
  const period = readText('/sys/fs/cgroup/cpu/cpu.cfs_period_us')?.trim();
  if (quota === undefined || period === undefined) return {};
  return { cpuQuota: quota === '-1' ? 'none' : `${quota} ${period}` };
}

/** Points kept before neighbours are merged in pairs (a run of hours keeps its shape at a coarser step). */
const MAX_POINTS = MAX_MACHINE_POINTS;

export interface MachineWatch {
  /** The state so far (a copy). */
  state(): MachineState;
  /** Takes one reading now (the interval's timer calls it). */
  read(): void;
  stop(): void;
}

/** Starts reading the machine every `intervalMs`; `timer: false` leaves the reads to the caller (tests). */
export function watchMachine(options: { intervalMs?: number; reader?: MachineReader; timer?: boolean } = {}): MachineWatch {
  const reader = options.reader ?? realMachine;
  const intervalMs = options.intervalMs ?? 1000;
  const facts = reader === realMachine ? staticFacts() : {};
  const startMs = reader.nowMs();
  const points: MachinePoint[] = [];
  let last = { ticks: ticksOf(reader), own: reader.ownMicros(), atMs: startMs };

  // Past MAX_POINTS, neighbours merge in pairs and later readings are kept in groups of as many.
  let perPoint = 1;
  const pending: MachinePoint[] = [];
  const read = (): void => {
    const now = { ticks: ticksOf(reader), own: reader.ownMicros(), atMs: reader.nowMs() };
    const point = pointBetween(last, now, reader.cores(), reader.load1(), startMs);
    last = now;
    if (!point) return;
    pending.push(point);
    if (pending.length < perPoint) return;
    points.push(meanOf(pending));
    pending.length = 0;
    if (points.length >= MAX_POINTS) {
      const merged = mergePairs(points);
      points.length = 0;
      points.push(...merged);
      perPoint *= 2;
    }
  };
  const timer = options.timer === false ? undefined : setInterval(read, intervalMs);
  timer?.unref();
  return {
    state: () => ({ ...facts, intervalMs: intervalMs * perPoint, points: points.map((p) => ({ ...p })) }),
    read,
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}

function ticksOf(reader: MachineReader): CpuTicks | undefined {
  const text = reader.procStat();
  return text === undefined ? undefined : parseCpuTicks(text);
}

interface Reading {
  ticks: CpuTicks | undefined;
  own: number | undefined;
  atMs: number;
}

/** The interval between two readings as cores: shares of the machine's ticks, scaled by its cores. */
function pointBetween(a: Reading, b: Reading, cores: number, load1: number, startMs: number): MachinePoint | undefined {
  if (!a.ticks || !b.ticks) return undefined;
  const total = b.ticks.total - a.ticks.total;
  const wallMs = b.atMs - a.atMs;
  if (total <= 0 || wallMs <= 0) return undefined;
  const busy = ((b.ticks.busy - a.ticks.busy) / total) * cores;
  const steal = ((b.ticks.steal - a.ticks.steal) / total) * cores;
  const ownCores = a.own !== undefined && b.own !== undefined ? (b.own - a.own) / 1000 / wallMs : undefined;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    atMs: Math.round(b.atMs - startMs),
    load1: round(load1),
    busy: round(Math.max(0, busy)),
    steal: round(Math.max(0, steal)),
    // Ticks and the run's own µs are read a few µs apart: a small negative is "none".
    ...(ownCores !== undefined ? { others: round(Math.max(0, busy - ownCores)) } : {}),
  };
}

function mergePairs(points: readonly MachinePoint[]): MachinePoint[] {
  const merged: MachinePoint[] = [];
  for (let i = 0; i < points.length; i += 2) merged.push(meanOf(points.slice(i, i + 2)));
  return merged;
}

/** Readings of equal length as one: their mean shares, the last one's time and load. */
function meanOf(group: readonly MachinePoint[]): MachinePoint {
  const last = group.at(-1)!;
  const mean = (pick: (p: MachinePoint) => number): number => Math.round((group.reduce((s, p) => s + pick(p), 0) / group.length) * 1000) / 1000;
  return {
    atMs: last.atMs,
    load1: last.load1,
    busy: mean((p) => p.busy),
    steal: mean((p) => p.steal),
    ...(group.every((p) => p.others !== undefined) ? { others: mean((p) => p.others!) } : {}),
  };
}
