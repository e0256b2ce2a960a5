/**
 * What a profile says without opening a tool: the functions by self time,
 * each put in a category (the engine's builtins and native code, the
 * runtime's own JavaScript, GC, rtbench's harness, the benchmark's code),
 * and between two arms the functions whose share of the time moved most.
 */
import type { CallFrame, CpuProfile } from './cpuprofile.ts';
import { indexNodes } from './cpuprofile.ts';
import { PROFILE_CATEGORIES, type ProfileCategory } from '@rtbench/core/profile-manifest';
import { bundleLocator, type FrameLocation, type FrameLocator } from './source-map.ts';

export type Category = ProfileCategory;

export const CATEGORIES: readonly Category[] = PROFILE_CATEGORIES;

/**
 * Sources that are rtbench's own: the harness, the adapters, the runners' entries, generated entries. What the cache
 * holds of the user's (built apps, library versions installed or linked as arms, and any installed package) is theirs.
 */
const OWN_SOURCE = /^(packages|runners)\/|^\.rtbench-cache\/(?!(apps|libraries|linked-packages)\/)(?!.*\/node_modules\/)|^rtbench-[\w-]+-entry\.ts$/;

export function categorize(frame: CallFrame, where: FrameLocation | undefined): Category {
  const name = frame.functionName;
  if (name === '(garbage collector)') return 'gc';
  if (name === '(idle)') return 'idle';
  if (name === '(program)' || name === '(root)' || !frame.url || !where) return 'engine';
  if (where.inBundle) return OWN_SOURCE.test(where.source) ? 'harness' : 'benchmark';
  // A source file outside the bundle (some runtimes show some of their own modules by path); any other URL (`node:…`,
  // `ext:…`, a bare name) is one of the runtime's own modules.
  if (/^(file:\/\/)?\//.test(frame.url)) return OWN_SOURCE.test(where.source) ? 'harness' : 'benchmark';
  return 'runtime';
}

interface FunctionStat {
  /** name + location: the same function in two profiles has the same key. */
  key: string;
  name: string;
  /** `source:line` of the function's start (mapped through the bundle's source map), absent for native code. */
  location?: string;
  category: Category;
  selfMs: number;
  totalMs: number;
  /** Fractions of the profile's time (0..1). */
  selfShare: number;
  totalShare: number;
}

export interface ProfileSummary {
  /** Time the samples cover, ms. */
  totalMs: number;
  samples: number;
  byCategory: Record<Category, { ms: number; share: number }>;
  /** Every function, by self time, largest first. */
  functions: FunctionStat[];
}

export interface SummarizeOptions {
  /** The bundle the profile was taken on: frames are mapped back to sources through its inline source map. */
  bundlePath?: string;
  /** Or a locator of one's own. */
  locate?: FrameLocator;
  /** How frames are named and categorised (native profiles: their own categories). */
  frames?: NodeFramesOptions;
}

/** Weight of each sample in µs: the time until the next sample (the last: the mean interval). */
export function sampleWeights(profile: CpuProfile): number[] {
  const n = profile.samples.length;
  let sum = 0;
  for (let i = 1; i < n; i++) sum += Math.max(0, profile.timeDeltas[i] ?? 0);
  const mean = n > 1 ? sum / (n - 1) : 1;
  const weights: number[] = new Array(n);
  for (let i = 0; i < n; i++) weights[i] = i + 1 < n ? Math.max(0, profile.timeDeltas[i + 1] ?? 0) : mean;
  return weights;
}

function displayName(name: string): string {
  return name === '' ? '(anonymous)' : name;
}

/** What a profile node is, as summaries and call trees show it. */
export interface NodeFrame {
  /** name + location + category: the same function in two profiles (or two places of one) has the same key. */
  key: string;
  name: string;
  location?: string;
  category: Category;
}

/**
 * Each node's function: its display name, mapped location and category.
 * Native and runtime code called by the harness is the harness's cost
 * (workerd's edge-aligned timer spinning on performance.now).
 */
/**
 * `inlined`: frames of the harness whose own weight is the case's code that
 * the JIT inlined into them (allocation profiles record machine frames,
 * alloc-summary.ts); they count as benchmark code under the name returned,
 * and what they call is called by the benchmark.
 */
export interface NodeFramesOptions {
  inlined?: (name: string, where: FrameLocation) => string | undefined;
  /**
   * A native profile's own category for a node (native-frames.ts), used
   * instead of one judged from its call frame's url.
   */
  categoryOf?: (nodeId: number) => Category | undefined;
}

export function nodeFrames(profile: Pick<CpuProfile, 'nodes'>, locate: FrameLocator, options: NodeFramesOptions = {}): Map<number, NodeFrame> {
  const { parent } = indexNodes(profile);
  const base = new Map<number, Category>();
  const located = new Map<number, FrameLocation | undefined>();
  const renamed = new Map<number, string>();
  for (const node of profile.nodes) {
    const where = node.callFrame.url ? locate(node.callFrame) : undefined;
    located.set(node.id, where);
    const own = options.categoryOf?.(node.id);
    if (own) {
      base.set(node.id, own);
      continue;
    }
    let category = categorize(node.callFrame, where);
    const as = category === 'harness' && where && options.inlined ? options.inlined(displayName(node.callFrame.functionName), where) : undefined;
    if (as !== undefined) {
      category = 'benchmark';
      renamed.set(node.id, as);
    }
    base.set(node.id, category);
  }
  const callerCategory = (id: number): Category | undefined => {
    for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
      const c = base.get(cur);
      if (c === 'harness' || c === 'benchmark') return c;
    }
    return undefined;
  };
  const frames = new Map<number, NodeFrame>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const where = located.get(node.id);
    let category = base.get(node.id)!;
    if ((category === 'engine' || category === 'runtime') && !frame.functionName.startsWith('(') && callerCategory(node.id) === 'harness') category = 'harness';
    const name = renamed.get(node.id) ?? displayName(frame.functionName);
    const location = where ? `${where.source}:${where.line}` : undefined;
    frames.set(node.id, { key: `${name}\u0000${location ?? ''}\u0000${category}`, name, ...(location ? { location } : {}), category });
  }
  return frames;
}

/** Per function: self and total weight (µs of CPU, bytes allocated), once per function per stack however often it recurs. */
interface Weighed {
  total: number;
  byCategory: Map<Category, number>;
  stats: { key: string; name: string; location?: string; category: Category; self: number; total: number }[];
}

/** Weighs the functions of a profile's nodes by each node's own weight (its samples' time, its allocated bytes). */
export function weighFunctions(profile: Pick<CpuProfile, 'nodes'>, selfOfNode: ReadonlyMap<number, number>, locate: FrameLocator, options: NodeFramesOptions = {}): Weighed {
  const { parent } = indexNodes(profile);
  // One stat per function (not per node: a function reached by two paths is one line).
  const stats = new Map<string, Weighed['stats'][number]>();
  const keyOfNode = new Map<number, string>();
  for (const [id, frame] of nodeFrames(profile, locate, options)) {
    keyOfNode.set(id, frame.key);
    if (!stats.has(frame.key)) stats.set(frame.key, { ...frame, self: 0, total: 0 });
  }
  let total = 0;
  const byCategory = new Map<Category, number>();
  const seen = new Set<string>();
  for (const [leaf, w] of selfOfNode) {
    const leafKey = keyOfNode.get(leaf);
    if (leafKey === undefined || !(w > 0)) continue;
    total += w;
    const leafStat = stats.get(leafKey)!;
    leafStat.self += w;
    byCategory.set(leafStat.category, (byCategory.get(leafStat.category) ?? 0) + w);
    // Total: once per function per stack, however often it recurs on it.
    seen.clear();
    for (let cur: number | undefined = leaf; cur !== undefined; cur = parent.get(cur)) {
      const key = keyOfNode.get(cur);
      if (key === undefined || seen.has(key)) continue;
      seen.add(key);
      stats.get(key)!.total += w;
    }
  }
  const list = [...stats.values()].filter((s) => s.total > 0 && s.name !== '(root)').sort((a, b) => b.self - a.self || b.total - a.total || a.key.localeCompare(b.key));
  return { total, byCategory, stats: list };
}

export function summarize(profile: CpuProfile, options: SummarizeOptions = {}): ProfileSummary {
  const locate = options.locate ?? bundleLocator(options.bundlePath);
  const { byId } = indexNodes(profile);
  const weights = sampleWeights(profile);
  const selfOfNode = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = profile.samples[i]!;
    if (byId.has(leaf)) selfOfNode.set(leaf, (selfOfNode.get(leaf) ?? 0) + weights[i]!);
  }
  const { total: totalUs, byCategory: byCategoryUs, stats } = weighFunctions(profile, selfOfNode, locate, options.frames);
  const functions = stats.map(({ self, total, ...s }) => ({ ...s, selfMs: self / 1000, totalMs: total / 1000, selfShare: totalUs ? self / totalUs : 0, totalShare: totalUs ? total / totalUs : 0 }));
  const byCategory = {} as Record<Category, { ms: number; share: number }>;
  for (const c of CATEGORIES) {
    const us = byCategoryUs.get(c) ?? 0;
    byCategory[c] = { ms: us / 1000, share: totalUs ? us / totalUs : 0 };
  }
  return { totalMs: totalUs / 1000, samples: profile.samples.length, byCategory, functions };
}

interface DiffEntry {
  key: string;
  name: string;
  location?: string;
  category: Category;
  /** Self-time shares (0..1) in each arm; 0 where the function was not sampled. */
  aShare: number;
  bShare: number;
  /** bShare − aShare. */
  delta: number;
}

/** What a diff needs of a summary: CPU (ProfileSummary) and allocation (AllocationSummary) summaries both fit. */
export interface Shares {
  functions: readonly { key: string; name: string; location?: string; category: Category; selfShare: number }[];
  byCategory: Readonly<Record<Category, { share: number }>>;
}

export interface ProfileDiff {
  /** By |delta|, largest first. */
  functions: DiffEntry[];
  byCategory: Record<Category, { aShare: number; bShare: number; delta: number }>;
}

/**
 * The functions whose share of self time changed most from arm a to arm b.
 * Shares, not milliseconds: the two profiles cover different numbers of
 * calls, so what is compared is where each arm's time goes. Functions are
 * matched by name and mapped source location (the same suite code in two
 * bundles, or on two runtimes, is one function; native builtins by name).
 */
export function diffProfiles(a: Shares, b: Shares): ProfileDiff {
  const entries = new Map<string, DiffEntry>();
  for (const [side, summary] of [['a', a], ['b', b]] as const) {
    for (const f of summary.functions) {
      let e = entries.get(f.key);
      if (!e) {
        e = { key: f.key, name: f.name, ...(f.location ? { location: f.location } : {}), category: f.category, aShare: 0, bShare: 0, delta: 0 };
        entries.set(f.key, e);
      }
      if (side === 'a') e.aShare += f.selfShare;
      else e.bShare += f.selfShare;
    }
  }
  const functions = [...entries.values()]
    .map((e) => ({ ...e, delta: e.bShare - e.aShare }))
    .filter((e) => e.aShare > 0 || e.bShare > 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.key.localeCompare(y.key));
  const byCategory = {} as ProfileDiff['byCategory'];
  for (const c of CATEGORIES) {
    const aShare = a.byCategory[c].share;
    const bShare = b.byCategory[c].share;
    byCategory[c] = { aShare, bShare, delta: bShare - aShare };
  }
  return { functions, byCategory };
}
