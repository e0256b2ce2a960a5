/**
 * The `.cpuprofile` format (Chrome DevTools Protocol `Profiler.Profile`, what
 * `--cpu-prof` writes and DevTools and speedscope open), and restricting a
 * profile to the harness's sampling phase. The phase is found from the stacks,
 * not from clocks (the profile's and the harness's share no origin on every
 * runtime): from after the last warmup sample before sampling (core's
 * MEASURE_FRAMES.warmup) to the last sample under the sampler's `sample`;
 * everything between is kept. packages/profile/README.md "Only the
 * sampling phase" lists what falls outside.
 */
import { MEASURE_FRAMES } from '@rtbench/core/measure';

export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  /** 0-based; -1 when unknown. */
  lineNumber: number;
  columnNumber: number;
}

/** Where a frame's function is, as written. */
export interface FrameLocation {
  /**
   * The source file relative to the bundle's source root (the repository:
   * `packages/core/src/measure.ts`, `test/fixtures/<suite>/index.ts`) when it
   * came from the bundle; otherwise the frame's URL as the runtime gave it
   * (`node:internal/…`, `ext:deno_web/…`, `node-internal:…`).
   */
  source: string;
  /** 1-based. */
  line: number;
  column: number;
  /** True when the frame was in the bundle (mapped or not). */
  inBundle: boolean;
}

export type FrameLocator = (frame: CallFrame) => FrameLocation | undefined;

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs, the profiler's clock. */
  startTime: number;
  endTime: number;
  /** The leaf node of each sample. */
  samples: number[];
  /** µs since the previous sample (the first: since startTime). */
  timeDeltas: number[];
}

/** What restricting a profile to the sampling phase found. */
export interface SamplingWindow {
  /**
   * 'markers': warmup and sampling were both seen in the stacks, the window is exact to a sample;
   * 'sampling-only': samples under `sample` were seen but none under warmup before them (it was too short to be sampled, or its frames were lost), or some inside the sampling phase (the marks are wrong): the window starts at the first sampling sample;
   * 'none': no harness frame was recognised, the whole profile is kept (start-up and warmup included).
   */
  method: 'markers' | 'sampling-only' | 'none';
  /** Samples kept and in the whole profile. */
  kept: number;
  total: number;
  /** Length of the window and of the whole profile, ms. */
  windowMs: number;
  profileMs: number;
}

/** Checks the shape enough to read it; throws with what is wrong. */
export function parseCpuProfile(text: string, what = 'the profile'): CpuProfile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not JSON: ${(error as Error).message}`);
  }
  const p = value as Partial<CpuProfile>;
  if (!p || !Array.isArray(p.nodes) || !Array.isArray(p.samples) || !Array.isArray(p.timeDeltas) || typeof p.startTime !== 'number') {
    throw new Error(`${what} is not a .cpuprofile (nodes, samples, timeDeltas, startTime)`);
  }
  if (p.samples.length !== p.timeDeltas.length) throw new Error(`${what} has ${p.samples.length} samples but ${p.timeDeltas.length} time deltas`);
  return { nodes: p.nodes, startTime: p.startTime, endTime: typeof p.endTime === 'number' ? p.endTime : p.startTime, samples: p.samples, timeDeltas: p.timeDeltas };
}

/** Each node's parent id, and nodes by id. */
export function indexNodes(profile: Pick<CpuProfile, 'nodes'>): { byId: Map<number, ProfileNode>; parent: Map<number, number> } {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { byId, parent };
}

/** Absolute time (µs) of each sample. */
function sampleTimes(profile: CpuProfile): number[] {
  const times: number[] = new Array(profile.samples.length);
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    times[i] = t;
  }
  return times;
}

/** The harness's phase marks: functions of core's measure module (MEASURE_FRAMES). */
const isHarnessMeasure = (source: string): boolean => source === MEASURE_FRAMES.source || source.endsWith(`/${MEASURE_FRAMES.source}`);
const WARMUP_FUNCTIONS: ReadonlySet<string> = new Set(MEASURE_FRAMES.warmup);
const SAMPLING_FUNCTIONS: ReadonlySet<string> = new Set(MEASURE_FRAMES.sampling);

type Phase = 'warmup' | 'sampling' | undefined;

/** Which phase each node's stack is in, judged by the innermost harness phase frame on it. */
function phaseOfNodes(profile: CpuProfile, locate: FrameLocator): Map<number, Phase> {
  const { byId, parent } = indexNodes(profile);
  const own = new Map<number, Phase>();
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName;
    if (!WARMUP_FUNCTIONS.has(name) && !SAMPLING_FUNCTIONS.has(name)) continue;
    const where = locate(node.callFrame);
    if (!where || !isHarnessMeasure(where.source)) continue;
    own.set(node.id, WARMUP_FUNCTIONS.has(name) ? 'warmup' : 'sampling');
  }
  const memo = new Map<number, Phase>();
  const phaseOf = (id: number): Phase => {
    const chain: number[] = [];
    let cur: number | undefined = id;
    let found: Phase;
    while (cur !== undefined) {
      if (memo.has(cur)) {
        found = memo.get(cur);
        break;
      }
      chain.push(cur);
      if (own.has(cur)) {
        found = own.get(cur);
        break;
      }
      cur = parent.get(cur);
    }
    for (const c of chain) memo.set(c, found);
    return found;
  };
  for (const id of byId.keys()) phaseOf(id);
  return memo;
}

/**
 * The profile restricted to the sampling phase: samples outside the window
 * dropped, startTime/endTime moved to the window's edges, hit counts
 * recounted, nodes no kept sample reaches removed.
 */
export function restrictToSampling(profile: CpuProfile, locate: FrameLocator): { profile: CpuProfile; window: SamplingWindow } {
  const phases = phaseOfNodes(profile, locate);
  const times = sampleTimes(profile);
  let firstSampling = -1;
  let lastSampling = -1;
  for (let i = 0; i < profile.samples.length; i++) {
    if (phases.get(profile.samples[i]!) !== 'sampling') continue;
    if (firstSampling < 0) firstSampling = i;
    lastSampling = i;
  }
  if (lastSampling < 0) return wholeProfile(profile);
  // Warmup samples after the last sampling sample are the floor (taken after sampling for a case near it) and lie
  // outside the window anyway; one between the first and last sampling samples would mean the marks are wrong.
  let lastWarmup = -1;
  let warmupInside = false;
  for (let i = 0; i < lastSampling; i++) {
    if (phases.get(profile.samples[i]!) !== 'warmup') continue;
    if (i < firstSampling) lastWarmup = i;
    else warmupInside = true;
  }
  const markers = lastWarmup >= 0 && !warmupInside;
  return keepSamples(profile, times, markers ? lastWarmup + 1 : firstSampling, lastSampling, markers ? 'markers' : 'sampling-only');
}

/** The whole profile kept: no window was found in it ('none'), or the profiler ran over the window alone (`method`). */
export function wholeProfile(profile: CpuProfile, method: SamplingWindow['method'] = 'none'): { profile: CpuProfile; window: SamplingWindow } {
  const profileMs = (profile.endTime - profile.startTime) / 1000;
  return { profile, window: { method, kept: profile.samples.length, total: profile.samples.length, windowMs: profileMs, profileMs } };
}

/** The profile with samples `from` to `to` (inclusive) kept, and the window that says so. */
function keepSamples(profile: CpuProfile, times: readonly number[], from: number, to: number, method: SamplingWindow['method']): { profile: CpuProfile; window: SamplingWindow } {
  const samples = profile.samples.slice(from, to + 1);
  const timeDeltas = profile.timeDeltas.slice(from, to + 1);
  const startTime = from > 0 ? times[from - 1]! : profile.startTime;
  const endTime = to >= from ? times[to]! + (profile.timeDeltas[to + 1] ?? 0) : startTime;
  const restricted = pruneNodes({ nodes: profile.nodes, startTime, endTime, samples, timeDeltas });
  return { profile: restricted, window: { method, kept: samples.length, total: profile.samples.length, windowMs: (endTime - startTime) / 1000, profileMs: (profile.endTime - profile.startTime) / 1000 } };
}

/**
 * A request server's profile restricted to its steady requests: the samples
 * after the last one under the begin mark and before the first one under
 * the end mark (`isBegin`, `isEnd`: the mark functions the server runs
 * around them, each once). A sample inside a mark that fell to another
 * frame, or a mark a loaded machine stretched, moves no edge. Either mark
 * unseen, or no sample after the begin's last and before the end's first:
 * the whole profile is kept ('none').
 */
export function restrictBetweenMarks(profile: CpuProfile, isBegin: (frame: CallFrame) => boolean, isEnd: (frame: CallFrame) => boolean): { profile: CpuProfile; window: SamplingWindow } {
  const begin = markSamples(profile, isBegin);
  const end = markSamples(profile, isEnd);
  if (begin.length === 0 || end.length === 0) return wholeProfile(profile);
  const from = begin[begin.length - 1]! + 1;
  const to = end[0]! - 1;
  if (to < from) return wholeProfile(profile);
  return keepSamples(profile, sampleTimes(profile), from, to, 'markers');
}

/** The indices of the samples under a mark function (the frame or one of its callers). */
function markSamples(profile: CpuProfile, isMark: (frame: CallFrame) => boolean): number[] {
  const { byId, parent } = indexNodes(profile);
  const marked = new Map<number, boolean>();
  const underMark = (id: number): boolean => {
    const known = marked.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const found = node !== undefined && (isMark(node.callFrame) || (up !== undefined && underMark(up)));
    marked.set(id, found);
    return found;
  };
  return profile.samples.flatMap((id, i) => (underMark(id) ? [i] : []));
}

/** Recounts hitCount and positionTicks are left as they were only for kept nodes; drops nodes no sample reaches. */
function pruneNodes(profile: CpuProfile): CpuProfile {
  const { parent } = indexNodes(profile);
  const hits = new Map<number, number>();
  for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const live = new Set<number>();
  for (const id of hits.keys()) {
    let cur: number | undefined = id;
    while (cur !== undefined && !live.has(cur)) {
      live.add(cur);
      cur = parent.get(cur);
    }
  }
  const nodes = profile.nodes
    .filter((n) => live.has(n.id))
    .map((n): ProfileNode => {
      // positionTicks counted the whole profile: dropped rather than left wrong.
      const { positionTicks: _ticks, ...rest } = n;
      return { ...rest, hitCount: hits.get(n.id) ?? 0, children: (n.children ?? []).filter((c) => live.has(c)) };
    });
  return { ...profile, nodes };
}
