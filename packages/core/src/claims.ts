/**
 * Claims: what a suite says its cases show, stated next to them so that
 * `rtbench claims` can check it on every runtime, release or build. A claim
 * compares a case on a variant (the subject) with another case on the same
 * variant, or with the same case on another variant, and says by how much it
 * is faster, slower, or the same. Runtime-neutral and free of zod: suites are
 * bundled into every runtime, where claim() only records what it is given.
 */
// Types only: the shapes are declared once with the saved run's schema, and nothing of zod reaches a bundle.
import type { ClaimMeasure, ClaimQuantile, Expectation } from './claims-schema.ts';
import { BYTE_SIZE_HINT, formatByteSize, parseByteSize } from './byte-size.ts';
import { parseCpuTime } from './cpu-time.ts';

export type { ClaimMeasure, ClaimQuantile, Expectation };

/** An absolute bound on a case's own figure, with no other side: `below('64MB')`. */
export type AbsoluteBound = Extract<Expectation, { kind: 'below' }>;

/** A CPU time a request case's quantile stays under: `p99: below('10ms')`. */
export type CpuBound = Extract<Expectation, { kind: 'cpu-below' }>;

/** A CPU time as a person writes it: '10ms', '500us', '1s'. */
export type CpuTime = `${number}${'us' | 'µs' | 'ms' | 's'}`;

/** The quantiles a claim may name (a process serves a few hundred requests: its p99.9 is its maximum). */
const QUANTILES: readonly ClaimQuantile[] = ['p50', 'p90', 'p99'];

/** A ratio as a factor (1.5 = 1.5×) or a percentage text ('10%' = 1.1×). */
export type Size = number | `${number}%`;

/** What every claim names: its case, and where it is checked. */
interface ClaimTarget {
  /**
   * The subject: a case id, or a case's id without its parameters
   * ("parse / identity reviver (arrow)") for every combination of them.
   */
  case: string;
  /**
   * Variants the subject is checked on, in the variant syntax (`node@26`,
   * `"node@26 --max-semi-space-size=64"`, `workerd`): one check per variant.
   * Absent: the default runtimes.
   */
  on?: readonly string[];
  /** Only the parameter combinations with these values (`{ size: '10kb' }`). */
  where?: Readonly<Record<string, string | number | boolean>>;
}

/** A claim against another side: a case, or the same case on another variant. */
export interface RelativeClaimOptions extends ClaimTarget {
  /**
   * The other side: another case (compared on the same variant), or `{ variant }`: the same case on another variant.
   * The case itself on the same variant is an A/A check against a second process of it (a claim that must not hold).
   */
  than: string | { case: string } | { variant: string };
  is: Expectation;
  /** Default 'time'; 'peakRss': the peak resident memory of the case's process (faster/slower read as less/more memory). */
  measure?: ClaimMeasure;
  /**
   * A request case's quantile of CPU per request instead of its median
   * (`'p99'`): per process the quantile of its requests after its first.
   */
  quantile?: ClaimQuantile;
  peakRss?: never;
  p50?: never;
  p90?: never;
  p99?: never;
}

/** A claim of an absolute bound on the peak resident memory of the case's process: `peakRss: below('64MB')`. */
export interface BoundClaimOptions extends ClaimTarget {
  peakRss: AbsoluteBound;
  than?: never;
  is?: never;
  measure?: never;
  quantile?: never;
  p50?: never;
  p90?: never;
  p99?: never;
}

/** A claim that a request case's quantile of CPU per request stays under a CPU time: `p99: below('10ms')`. */
export type QuantileBoundClaimOptions = ClaimTarget & { [Q in ClaimQuantile]?: CpuBound } & { than?: never; is?: never; measure?: never; quantile?: never; peakRss?: never };

/** What a claim is declared with. */
export type ClaimOptions = RelativeClaimOptions | BoundClaimOptions | QuantileBoundClaimOptions;

/** A claim as the suite declared it: its sentence and options, sizes resolved. */
export interface ClaimSpec {
  /** The sentence a person reads; it is also the claim's id within its suite. */
  readonly says: string;
  readonly case: string;
  /** Absent for an absolute bound (`is` of kind `below`): the subject is held to a number, not to another side. */
  readonly than?: { readonly case: string } | { readonly variant: string };
  readonly is: Expectation;
  readonly on?: readonly string[];
  readonly where?: Readonly<Record<string, string | number | boolean>>;
  readonly measure: ClaimMeasure;
  readonly quantile?: ClaimQuantile;
}

/** A size as a factor > 1. */
export function sizeFactor(size: Size): number {
  const factor = typeof size === 'number' ? size : 1 + Number(size.slice(0, -1)) / 100;
  if (!(Number.isFinite(factor) && factor > 1)) throw new Error(`a claim's size must be more than 1× (or more than 0%), got ${String(size)}`);
  return factor;
}

/** The subject is at least `size` faster: `faster(1.5)` (1.5×), `faster('10%')`. */
export function faster(size: Size): Expectation {
  return { kind: 'faster', factor: sizeFactor(size) };
}

/** The subject is at least `size` slower: `slower(2)`, `slower('10%')`. */
export function slower(size: Size): Expectation {
  return { kind: 'slower', factor: sizeFactor(size) };
}

/** The two are within ±`size` of each other: `within('3%')`. */
export function within(size: `${number}%` | number): Expectation {
  const fraction = typeof size === 'number' ? size : Number(size.slice(0, -1)) / 100;
  if (!(fraction > 0 && fraction < 1)) throw new Error(`within() takes a band between 0% and 100%, got ${String(size)}`);
  return { kind: 'within', fraction };
}

/** The subject costs at most `factor`× the other side: `atMost(1.2)` (a ceiling; below 1, at least that much less). */
export function atMost(factor: number): Expectation {
  if (!(Number.isFinite(factor) && factor > 0)) throw new Error(`atMost() takes a factor above 0, got ${String(factor)}`);
  return { kind: 'at-most', factor };
}

/**
 * The subject's figure stays below an absolute size: `peakRss: below('64MB')`
 * (also '512MiB', or a number of bytes); or, given a CPU time, a request
 * case's quantile stays below it: `p99: below('10ms')` (also '500us', '1s').
 */
export function below(limit: CpuTime): CpuBound;
export function below(size: string | number): AbsoluteBound;
export function below(size: string | number): AbsoluteBound | CpuBound {
  const ms = typeof size === 'string' ? parseCpuTime(size) : undefined;
  if (ms !== undefined) {
    if (!(ms > 0)) throw new Error(`below() takes a CPU time above 0, got ${String(size)}`);
    return { kind: 'cpu-below', ms };
  }
  // A bare number says neither what it bounds nor in what unit: both readings are named.
  if (typeof size === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(size)) {
    throw new Error(`below(${JSON.stringify(size)}): give a unit: a CPU time for a request quantile (p99: below('10ms'); us, ms or s), or a size for peakRss (below('64MB'))`);
  }
  const bytes = typeof size === 'number' ? size : parseByteSize(size);
  if (bytes === undefined) throw new Error(`below(${JSON.stringify(size)}): ${BYTE_SIZE_HINT}`);
  if (!(Number.isFinite(bytes) && bytes > 0)) throw new Error(`below() takes a size above 0 bytes, got ${String(size)}`);
  return { kind: 'below', bytes };
}

/** Whether a claim holds its subject to a number (`below`), with no other side. */
export function isBound(e: Expectation): e is AbsoluteBound | CpuBound {
  return e.kind === 'below' || e.kind === 'cpu-below';
}

/** No detectable difference: the two are equivalent within the run's threshold. */
export function same(): Expectation {
  return { kind: 'same' };
}

/**
 * A claim about a suite's cases, checked and normalised: a suite module
 * exports its claims beside its cases (`export const claims = [claim('…',
 * { … }), …]`), for native and host-timed suites alike.
 */
export function claim(says: string, options: ClaimOptions): ClaimSpec {
  const text = says.trim();
  if (!text) throw new Error('a claim needs a sentence that says what it claims');
  if (!options || typeof options.case !== 'string' || !options.case) throw new Error(`claim "${text}": name the case it is about (case: '<case id>')`);
  const bounded = QUANTILES.filter((q) => options[q] !== undefined);
  if (bounded.length > 1) throw new Error(`claim "${text}": one quantile a claim (${bounded.join(', ')} given)`);
  const cpu = bounded.length ? { quantile: bounded[0]!, bound: options[bounded[0]!]! } : undefined;
  if (options.peakRss !== undefined) {
    if (options.peakRss?.kind !== 'below' || options.than !== undefined || options.is !== undefined || cpu) {
      throw new Error(`claim "${text}": peakRss takes an absolute bound alone (peakRss: below('64MB'), without than or is)`);
    }
  } else if (cpu) {
    if (cpu.bound?.kind !== 'cpu-below' || options.than !== undefined || options.is !== undefined || options.quantile !== undefined) {
      throw new Error(`claim "${text}": ${cpu.quantile} takes a CPU time alone (${cpu.quantile}: below('10ms'), without than or is)`);
    }
  } else if (options.is?.kind === 'below' || options.is?.kind === 'cpu-below') {
    throw new Error(`claim "${text}": below() is an absolute bound: write peakRss: below('64MB') or p99: below('10ms'), without than`);
  }
  if (options.quantile !== undefined && !QUANTILES.includes(options.quantile)) throw new Error(`claim "${text}": quantile is one of ${QUANTILES.join(', ')}, got ${String(options.quantile)}`);
  if (options.quantile !== undefined && (options.measure ?? 'time') !== 'time') throw new Error(`claim "${text}": a quantile is of CPU per request, not of ${String(options.measure)}`);
  const bound = options.peakRss ?? cpu?.bound;
  const than = bound ? undefined : typeof options.than === 'string' ? { case: options.than } : options.than;
  if (!bound && !(than && (('case' in than && typeof than.case === 'string') || ('variant' in than && typeof than.variant === 'string')))) {
    throw new Error(`claim "${text}": say what it compares with (than: '<case id>' or { variant: 'node@24' })`);
  }
  if (options.on !== undefined && options.on.length === 0) throw new Error(`claim "${text}": on: [] names no variant`);
  const quantile = cpu?.quantile ?? options.quantile;
  return {
    says: text,
    case: options.case,
    ...(than ? { than } : {}),
    is: bound ?? options.is!,
    ...(options.on ? { on: [...options.on] } : {}),
    ...(options.where ? { where: { ...options.where } } : {}),
    measure: options.peakRss ? 'peakRss' : (options.measure ?? 'time'),
    ...(quantile ? { quantile } : {}),
  };
}

/** How a measure's lower and higher cost read: faster and slower, or less and more memory. */
export function costWords(measure: ClaimMeasure = 'time'): { lower: string; higher: string } {
  return measure === 'peakRss' ? { lower: 'less memory', higher: 'more memory' } : { lower: 'faster', higher: 'slower' };
}

/** The expectation in words: "at least 1.5× faster", "within ±3%", "at most 1.2× the memory". */
export function expectationText(e: Expectation, measure: ClaimMeasure = 'time'): string {
  const words = costWords(measure);
  switch (e.kind) {
    case 'faster':
      return `at least ${+e.factor.toFixed(3)}× ${words.lower}`;
    case 'slower':
      return `at least ${+e.factor.toFixed(3)}× ${words.higher}`;
    case 'within':
      return `within ±${+(e.fraction * 100).toFixed(2)}%`;
    case 'same':
      return 'no detectable difference';
    case 'at-most':
      return `at most ${+e.factor.toFixed(3)}× the ${measure === 'peakRss' ? 'memory' : 'cost'}`;
    case 'below':
      return `peak RSS below ${formatByteSize(e.bytes)}`;
    case 'cpu-below':
      return `below ${+e.ms.toFixed(3)} ms of CPU`;
  }
}

