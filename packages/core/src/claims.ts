/**
 * Claims: what a suite says its cases show, stated next to them so that
 * `rtbench claims` can check it on every runtime, release or build. A claim
 * compares a case on a variant (the subject) with another case on the same
 * variant, or with the same case on another variant, and says by how much it
 * is faster, slower, or the same. Runtime-neutral and free of zod: suites are
 * bundled into every runtime, where claim() only records what it is given.
 */
// Types only: the shapes are declared once with the saved run's schema, and nothing of zod reaches a bundle.
import type { ClaimMeasure, Expectation } from './claims-schema.ts';

export type { ClaimMeasure, Expectation };

/** A ratio as a factor (1.5 = 1.5×) or a percentage text ('10%' = 1.1×). */
export type Size = number | `${number}%`;

/** What a claim is declared with. */
export interface ClaimOptions {
  /**
   * The subject: a case id, or a case's id without its parameters
   * ("parse / identity reviver (arrow)") for every combination of them.
   */
  case: string;
  /**
   * The other side: another case (compared on the same variant), or `{ variant }`: the same case on another variant.
   * The case itself on the same variant is an A/A check against a second process of it (a claim that must not hold).
   */
  than: string | { case: string } | { variant: string };
  is: Expectation;
  /**
   * Variants the subject is checked on, in the variant syntax (`node@26`,
   * `"node@26 --max-semi-space-size=64"`, `workerd`): one check per variant.
   * Absent: the default runtimes.
   */
  on?: readonly string[];
  /** Only the parameter combinations with these values (`{ size: '10kb' }`). */
  where?: Readonly<Record<string, string | number | boolean>>;
  /** Default 'time'; 'peakRss': the peak resident memory of the case's process (faster/slower read as less/more memory). */
  measure?: ClaimMeasure;
}

/** A claim as the suite declared it: its sentence and options, sizes resolved. */
export interface ClaimSpec {
  /** The sentence a person reads; it is also the claim's id within its suite. */
  readonly says: string;
  readonly case: string;
  readonly than: { readonly case: string } | { readonly variant: string };
  readonly is: Expectation;
  readonly on?: readonly string[];
  readonly where?: Readonly<Record<string, string | number | boolean>>;
  readonly measure: ClaimMeasure;
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
  const than = typeof options.than === 'string' ? { case: options.than } : options.than;
  if (!than || !(('case' in than && typeof than.case === 'string') || ('variant' in than && typeof than.variant === 'string'))) {
    throw new Error(`claim "${text}": say what it compares with (than: '<case id>' or { variant: 'node@24' })`);
  }
  if (options.on !== undefined && options.on.length === 0) throw new Error(`claim "${text}": on: [] names no variant`);
  return {
    says: text,
    case: options.case,
    than,
    is: options.is,
    ...(options.on ? { on: [...options.on] } : {}),
    ...(options.where ? { where: { ...options.where } } : {}),
    measure: options.measure ?? 'time',
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
  }
}

