/**
 * Instruction counts: the second instrument. A replicate of a case on one
 * variant is two processes under valgrind's cachegrind that run the case a
 * fixed number of times, W and W + ΔN (a fixed-iteration job: no clock
 * decides anything inside), in parallel on the two cores (wall time does not
 * change a count). Everything the two processes share — start-up, loading the
 * suite, setup, the first W calls and their JIT tiering — cancels in the
 * difference, and (I(W + ΔN) − I(W)) / ΔN is the instructions of one
 * operation in the steady state.
 *
 * Counts repeat only if the engine does the same work every time: V8 runs with
 * --predictable (no concurrent compilation or GC threads, fixed seeds); Bun
 * with JSC's concurrent JIT and GC off. ΔN is chosen so that the counted
 * difference is ~1.5 G instructions, from a short native timing of the case:
 * the start-up noise that remains (up to ~2.6 M instructions between deno
 * processes, ~1 k on node: docs/instructions.md) is then ≤ 0.2% of it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MeasureOptions } from '@rtbench/core';
import type { Job } from '@rtbench/core/protocol';
import type { RoundRecord } from '@rtbench/core/schema';
import { cachegrindWrap, estimatedCycles, guardDir, judgeOutcome, removeGuardedDir, parseCachegrind, type CachegrindSummary, type JobOutcome, type TranslatedFlags } from '@rtbench/runner-kit';
import { median } from '@rtbench/stats';
import type { Arm, ArmResult, Measurer, ReplicateContext, Unit } from '../measurer.ts';
import { armResultOf } from './judge.ts';

/** Engine flags (rtbench's syntax) that make a runtime's work repeatable, per engine. */
export const DETERMINISM_FLAGS: Readonly<Record<'v8' | 'jsc', readonly string[]>> = {
  v8: ['--predictable'],
  jsc: ['--useConcurrentJIT=false', '--useConcurrentGC=false'],
};

/** Instructions the counted difference should hold (ΔN × instructions per op). */
export const TARGET_COUNTED_INSTRUCTIONS = 1.5e9;
/** Instructions per ns of native time, to size ΔN from a timing (a rough, conservative guess: 3 per ns). */
const INSTRUCTIONS_PER_NS = 3;
/** Native time the W warm-up calls take (W is chosen from the timing). */
const WARM_NS = 50e6;

export interface InstructionOptions {
  valgrind: string;
  cacheSim: boolean;
  timeoutMs: number;
  /** Processes under valgrind at once (2 on this machine: one per core). */
  parallel: number;
}

export const INSTRUCTIONS_DESCRIPTION =
  'instructions: per case, variant and round, two processes under valgrind (cachegrind) run the case W and W + ΔN times; the sample is the difference of their instruction counts over ΔN';

/** The variant's flags plus the determinism flags of its engine, translated by its runner. */
export function deterministicFlags(arm: Arm): TranslatedFlags {
  const translated = arm.runner.translateFlags([...arm.variantFlags, ...DETERMINISM_FLAGS[arm.target.engine]]);
  // The variant's own environment (NODE_ENV=…) stays; the engine's flags are translated afresh with the additions.
  return { args: translated.args, env: { ...arm.flags.env, ...translated.env } };
}

/** Runs `jobs` with at most `parallel` at once, in order of start. */
async function pool<T>(jobs: (() => Promise<T>)[], parallel: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return out;
}

interface Counted {
  outcome: JobOutcome;
  summary: CachegrindSummary | undefined;
  log: string;
}

export function instructionsMeasurer(options: InstructionOptions): Measurer {
  /** ns per operation from a short native run, per case × variant (sizes W and ΔN once). */
  const timings = new Map<string, Promise<number | ArmResult>>();

  const nativeTiming = (arm: Arm, caseId: string, context: ReplicateContext): Promise<number | ArmResult> => {
    const key = `${caseId}\u0000${arm.id}`;
    let t = timings.get(key);
    if (!t) {
      const job: Job = { protocol: 1, kind: 'measure', caseId, options: { warmupMs: 30, timeMs: 20, minSamples: 5, maxSamples: 1000, sampleMs: 0 } };
      t = arm.runner.runJob({ target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs, ...(context.signal ? { signal: context.signal } : {}) }).then((outcome) => {
        const verdict = judgeOutcome(outcome, arm.runner.runtime, options.timeoutMs);
        return verdict.kind === 'result' ? Math.max(1, median(verdict.message.samples)) : armResultOf(arm, outcome, options.timeoutMs, context.round, 0);
      });
      timings.set(key, t);
    }
    return t;
  };

  const counted = async (arm: Arm, flags: TranslatedFlags, caseId: string, iterations: number, context: ReplicateContext): Promise<Counted> => {
    const dir = mkdtempSync(join(tmpdir(), `rtbench-cachegrind-${process.pid}-`));
    guardDir(dir);
    const logFile = join(dir, 'cachegrind.log');
    try {
      const measure: MeasureOptions = { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: iterations };
      const outcome = await arm.runner.runJob({
        target: arm.target,
        flags,
        bundlePath: arm.bundlePath,
        job: { protocol: 1, kind: 'measure', caseId, options: measure },
        timeoutMs: options.timeoutMs,
        wrap: cachegrindWrap(options.valgrind, logFile, options.cacheSim),
        ...(context.signal ? { signal: context.signal } : {}),
      });
      let log = '';
      try {
        log = readFileSync(logFile, 'utf8');
      } catch {
        /* valgrind never started: the outcome says why */
      }
      return { outcome, summary: parseCachegrind(log), log };
    } finally {
      removeGuardedDir(dir);
    }
  };

  return {
    description: INSTRUCTIONS_DESCRIPTION,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const caseId = unit.cases[0]!.id;
      // Size every arm first (native, one at a time), then count on both cores.
      const sizes: (number | ArmResult)[] = [];
      for (const arm of arms) {
        context.onArmStart?.(arm);
        sizes.push(await nativeTiming(arm, caseId, context));
      }
      const plans = arms.map((arm, i) => {
        const ns = sizes[i]!;
        if (typeof ns !== 'number') return undefined;
        const warm = Math.min(1e6, Math.max(10, Math.round(WARM_NS / ns)));
        const delta = Math.min(1e8, Math.max(10, Math.round(TARGET_COUNTED_INSTRUCTIONS / (INSTRUCTIONS_PER_NS * ns))));
        return { arm, flags: deterministicFlags(arm), warm, delta };
      });
      const jobs = plans.flatMap((p) => (p ? [() => counted(p.arm, p.flags, caseId, p.warm, context), () => counted(p.arm, p.flags, caseId, p.warm + p.delta, context)] : []));
      const results = await pool(jobs, options.parallel);
      let k = 0;
      return arms.map((arm, position): ArmResult => {
        const plan = plans[position];
        if (!plan) return sizes[position] as ArmResult;
        const a = results[k++]!;
        const b = results[k++]!;
        for (const run of [a, b]) {
          const judged = armResultOf(arm, run.outcome, options.timeoutMs, context.round, position);
          if (judged.outcomes[0]!.kind !== 'round') return judged;
          if (!run.summary) {
            return { armId: arm.id, warnings: [], outcomes: [{ kind: 'failure', failure: { kind: 'error', message: `valgrind left no instruction count for ${arm.runner.runtime}: ${run.log.trim().split('\n').slice(-3).join(' ') || 'no log'}` } }] };
          }
        }
        const perOp = (b.summary!.instructions - a.summary!.instructions) / plan.delta;
        const judged = armResultOf(arm, b.outcome, options.timeoutMs, context.round, position);
        const round = judged.outcomes[0] as { kind: 'round'; record: RoundRecord };
        if (!(perOp > 0)) {
          return { armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'failure', failure: { kind: 'error', message: `${plan.delta} more calls counted ${b.summary!.instructions - a.summary!.instructions} instructions: too little work to tell apart from start-up` } }] };
        }
        const perOpOf = (f: (s: CachegrindSummary) => number | undefined): number | undefined => {
          const x = f(a.summary!);
          const y = f(b.summary!);
          return x !== undefined && y !== undefined ? (y - x) / plan.delta : undefined;
        };
        const l1 = perOpOf((s) => s.l1Misses);
        const ll = perOpOf((s) => s.llMisses);
        const cycles = perOpOf(estimatedCycles);
        const record: RoundRecord = {
          ...round.record,
          samples: [perOp],
          iterationsPerSample: plan.delta,
          warmupIterations: plan.warm,
          wallMs: a.outcome.wallMs + b.outcome.wallMs,
          counts: {
            tool: `valgrind cachegrind${options.cacheSim ? ' --cache-sim=yes' : ''}`,
            iterations: [plan.warm, plan.warm + plan.delta],
            instructions: [a.summary!.instructions, b.summary!.instructions],
            ...(l1 !== undefined ? { l1MissesPerOp: l1 } : {}),
            ...(ll !== undefined ? { llMissesPerOp: ll } : {}),
            ...(cycles !== undefined ? { estimatedCyclesPerOp: cycles } : {}),
          },
        };
        delete record.sampleStartMs;
        return { armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'round', record }] };
      });
    },
  };
}
