/**
 * How a brought case's value is digested, so that the same-work check
 * compares what can be compared: the value the case returns (or handed to
 * do_not_optimize()); for a case that returns nothing, what can be proven
 * without a value; for a value the file declares random or per-runtime, its
 * shape. What was and was not compared is said in a warning per case and
 * process.
 */
import type { CaseSpec } from '@rtbench/core/suite';
import type { CaseBody, CaseContext, Params, TimedFn } from '@rtbench/core';
import type { BroughtFormat } from './formats.ts';
import { valueForDigest } from './keep-alive.ts';
import { shapeOnlyFor, shapeOnlyWarning, valueShape, type DeclaredValue } from './value-shape.ts';

/**
 * How to fix a case that returns nothing, in each file's own terms (ends its
 * warning's sentence). Formats whose functions return nothing by design (a
 * timed region, not a value) are left out: their undefined is digested as it
 * is, and a note says why (registry.ts).
 */
const EMPTY_RESULT_ADVICE: Partial<Record<BroughtFormat, string>> = {
  mitata: "or pass it to do_not_optimize() from 'mitata' (e.g. bench('parse', () => do_not_optimize(JSON.parse(text))))",
  tinybench: "e.g. bench.add('parse', () => JSON.parse(text))",
  'deno-bench': "e.g. Deno.bench('parse', () => JSON.parse(text))",
  vitest: "e.g. bench('parse', () => JSON.parse(text))",
  'benchmark-js': "e.g. suite.add('parse', () => JSON.parse(text))",
};

/**
 * What a brought file's entry knows of it on the host: the sha256 of its own
 * module graph's text (the file and the modules of its repository it
 * imports), and the cases whose value the file declares random or different
 * per runtime.
 */
export interface BroughtSource {
  readonly sourceHash?: string;
  readonly declaredValues?: readonly DeclaredValue[];
  /** Math.random keeps the runtime's own generator while the file loads (--real-random-at-load); by default it is seeded then. */
  readonly realRandomAtLoad?: boolean;
}

/**
 * What a case that returns nothing is digested by instead of its value, and
 * the warning that says what that proves: the same file's text, the same case
 * with the same inputs, a first call that completed. Every runtime that ran
 * the case digests it alike; a runtime where the same case returns a value
 * digests that value instead, and reads as different work.
 */
class ReturnedNothing {
  constructor(
    readonly source: string,
    readonly caseId: string,
    readonly params: Params,
  ) {}
}

function provenWithoutValue(sourceHash: string | undefined, advice: string): string {
  const source = sourceHash ? `the same source (sha256 ${sourceHash} of the file and the modules of its repository it imports)` : 'the same source';
  return `returns nothing (undefined): the check that every runtime did the same work compares what can be proven without a value — ${source}, the same case with the same inputs, a first call that completed — and not a result, which the case drops; the engine may drop work whose result is unused (a time at the harness's floor is marked). To compare results too, return them from the timed function, ${advice}`;
}

/** The body, calling `seen` with the context of every process it is set up in (a plain function becomes a generator that yields it). */
function withContext(body: CaseBody, seen: (ctx: CaseContext) => void): CaseBody {
  const tag = Object.prototype.toString.call(body);
  if (tag === '[object AsyncGeneratorFunction]') {
    const gen = body as (ctx: CaseContext) => AsyncGenerator<TimedFn, void, undefined>;
    return async function* (ctx: CaseContext) {
      seen(ctx);
      yield* gen(ctx);
    } as CaseBody;
  }
  if (tag === '[object GeneratorFunction]') {
    const gen = body as (ctx: CaseContext) => Generator<TimedFn, void, undefined>;
    return function* (ctx: CaseContext) {
      seen(ctx);
      yield* gen(ctx);
    } as CaseBody;
  }
  return function* (ctx: CaseContext) {
    seen(ctx);
    yield body as TimedFn;
  } as CaseBody;
}

/**
 * How a case's value is digested: its return value, else what it gave
 * do_not_optimize(), else (a harness whose cases time a value, and drop it)
 * what can be proven without one (a ReturnedNothing, so that a difference
 * reads as such); a value the file declares random or per-runtime by its
 * shape. Either is said in a warning per process.
 */
export function digestFor(c: { readonly format: BroughtFormat; readonly body: CaseBody; readonly params: Params }, id: string, source: BroughtSource): Pick<CaseSpec, 'body' | 'digestValue'> {
  const advice = EMPTY_RESULT_ADVICE[c.format];
  const shapeOnly = shapeOnlyFor(id, source.declaredValues ?? []);
  if (advice === undefined && shapeOnly === undefined) return { body: c.body, digestValue: valueForDigest };
  let ctx: CaseContext | undefined;
  const proof = new ReturnedNothing(source.sourceHash ?? 'unknown', id, c.params);
  return {
    body: withContext(c.body, (seen) => (ctx = seen)),
    digestValue(returned) {
      const value = valueForDigest(returned);
      if (value === undefined && advice !== undefined) {
        ctx?.warn(provenWithoutValue(source.sourceHash, advice));
        return proof;
      }
      if (value === undefined || shapeOnly === undefined) return value;
      ctx?.warn(shapeOnlyWarning(shapeOnly));
      return valueShape(value, shapeOnly);
    },
  };
}

