/**
 * Instruction counts: the second instrument. A replicate of a case on one
 * variant is one live process under valgrind's callgrind, started with the
 * counter's instrumentation off: start-up, loading the suite and a
 * fixed-iteration warmup of W calls run at valgrind's uninstrumented speed.
 * Then the host (CallgrindControl, through vgdb) turns instrumentation on,
 * lets one sample retranslate the hot code (and size n), takes samples of n
 * calls until two in a row count the same (steady state), then pairs of
 * samples of n and 2n calls, dumping the counter after each (a dump zeroes
 * it): I(2n) − I(n) holds n calls and nothing else, because what a
 * sample costs besides its calls (reading the command, answering, the
 * counter's own wake-up) is in both. The sample is (I(2n) − I(n)) / n, the
 * median over the pairs. Processes run on both cores at once (wall time does
 * not change a count).
 *
 * Counts repeat only if the engine does the same work every time: V8 runs with
 * --predictable (no concurrent compilation or GC threads, fixed seeds); Bun
 * with JSC's concurrent JIT and GC off. n is chosen once per case and variant,
 * in its first round, so that a sample of n calls is ~20 M instructions: the
 * first counted sample (sized from a short native timing) measures it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@rtbench/core/protocol';
import type { RoundRecord } from '@rtbench/core/schema';
import { CallgrindControl, estimatedCycles, guardDir, judgeOutcome, removeGuardedDir, type CountSummary, type JobOutcome, type LiveCase, type TranslatedFlags } from '@rtbench/runtime-kit';
import { median } from '@rtbench/stats';
import type { Arm, ArmResult, Measurer, ReplicateContext, Unit } from '../measurer.ts';
import { armResultOf } from './judge.ts';

/** Engine flags (rtbench's syntax) that make a runtime's work repeatable, per engine. */
export const DETERMINISM_FLAGS: Readonly<Record<'v8' | 'jsc', readonly string[]>> = {
  // --predictable: no background threads, fixed seeds. The three --no-…: V8's GC work that waits for the process to be
  // idle or for a timer (memory reducer, incremental-marking and minor-GC tasks); between two samples the process
  // is idle for as long as the host takes, so with them a collection lands in one sample or the next by the clock.
  v8: ['--predictable', '--no-memory-reducer', '--no-incremental-marking-task', '--no-minor-gc-task'],
  jsc: ['--useConcurrentJIT=false', '--useConcurrentGC=false'],
};

/** Instructions a sample of n calls should hold (n × instructions per op). */
export const TARGET_SAMPLE_INSTRUCTIONS = 100e6;
/** Instructions the first counted sample should hold by the native timing's guess (it measures what n must be). */
const SIZING_SAMPLE_INSTRUCTIONS = 4e6;
/** Pairs of samples (n, 2n) per process; the round's count is their median. */
export const SAMPLE_PAIRS = 2;
/** Steady state: two samples of n calls in a row within this of each other per call (a sample's own cost is in both). */
const SETTLE_TOLERANCE = 0.01;
const SETTLE_MAX_SAMPLES = 12;
/** Instructions per ns of native time, to size the first sample from a timing (a rough guess, off by up to ~5×: that sample measures the real figure). */
const INSTRUCTIONS_PER_NS = 3;
/** Native time the W warm-up calls take (W is chosen from the timing; they run uninstrumented). */
const WARM_NS = 100e6;

export interface InstructionOptions {
  valgrind: string;
  cacheSim: boolean;
  timeoutMs: number;
  /** Processes under valgrind at once (2 on this machine: one per core). */
  parallel: number;
}

export const INSTRUCTIONS_DESCRIPTION =
  `instructions: per case, variant and round, one process under valgrind (callgrind, instrumentation off until warmed by W calls); the host dumps the counter (vgdb) after each sample of n or 2n calls, once two samples of n count the same; the count is the median over ${SAMPLE_PAIRS} pairs of (I(2n) − I(n)) / n`;

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

/** How one arm's process runs a case: W warmup calls, a first sample that sizes n, then pairs of n and 2n. */
interface Plan {
  key: string;
  warm: number;
  first: number;
  /** Set by the process once its first sample is counted (or from an earlier round). */
  n: number;
}

/** One dump: the calls of the sample and what the counter read. */
interface Dump {
  iterations: number;
  summary: CountSummary;
}

/** A round of one arm: the process's outcome and its dumps, in pairs (n, 2n), or why there are none. */
interface Counted {
  outcome: JobOutcome;
  dumps: Dump[];
  settle?: number[];
  error?: string;
}

export function instructionsMeasurer(options: InstructionOptions): Measurer {
  /** ns per operation from a short native run, per case × variant (sizes W and n once). */
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

  /** n per case × variant, fixed by its first round (the same work in every round). */
  const sampleSizes = new Map<string, number>();

  /** One process: warm W calls uninstrumented, one sample to retranslate (and size n), then SAMPLE_PAIRS pairs of counted samples. */
  const counted = async (arm: Arm, flags: TranslatedFlags, caseId: string, plan: Plan, context: ReplicateContext): Promise<Counted> => {
    const { warm, first } = plan;
    const dir = mkdtempSync(join(tmpdir(), `rtbench-callgrind-${process.pid}-`));
    guardDir(dir);
    const control = new CallgrindControl(options.valgrind, dir, options.cacheSim);
    const job: Job = { protocol: 1, kind: 'lockstep', caseId, options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: warm } };
    let session: LiveCase | undefined;
    const dumps: Dump[] = [];
    /** Instructions per call of the samples that checked for steady state (raw, for the record). */
    const settle: number[] = [];
    try {
      session = arm.runner.startSession({ target: arm.target, flags, bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs, wrap: control.wrap, ...(context.signal ? { signal: context.signal } : {}) });
      const live = session;
      if (!(await live.ready)) return { outcome: await live.finish(), dumps };
      const sample = async (iterations: number): Promise<boolean> => (await live.sample(iterations)) !== undefined;
      try {
        await control.command('instrumentation on');
        // Turning instrumentation on throws away every translation: this sample pays for translating the hot code again,
        // and its count (an overestimate: translation and the sample's own cost are in it) sizes n.
        if (!(await sample(first))) return { outcome: await live.finish(), dumps };
        const sizing = await control.dump();
        const n = sampleSizes.get(plan.key) ?? Math.min(1e7, Math.max(1, Math.round(TARGET_SAMPLE_INSTRUCTIONS / Math.max(1, sizing.instructions / first))));
        sampleSizes.set(plan.key, n);
        plan.n = n;
        // Steady state, checked on the counter: samples of n until two in a row count the same per call (JIT tiering
        // under valgrind and the engine flags can come later than the native timing suggests; counts show it).
        // A dump zeroes the counter, so each dump holds one sample (and the wait before it), with no zero command between.
        let last: Dump | undefined;
        for (let i = 0; ; i++) {
          if (i === SETTLE_MAX_SAMPLES) return { outcome: await live.finish(), dumps, error: `the count per call did not settle within ${SETTLE_MAX_SAMPLES} samples of ${n} calls (last two: ${settle.slice(-2).map((x) => x.toFixed(0)).join(', ')} instructions per call): the engine is still tiering up or collecting` };
          if (!(await sample(n))) return { outcome: await live.finish(), dumps };
          const dump: Dump = { iterations: n, summary: await control.dump() };
          settle.push(dump.summary.instructions / n);
          if (last && Math.abs(dump.summary.instructions / last.summary.instructions - 1) <= SETTLE_TOLERANCE) {
            last = dump;
            break;
          }
          last = dump;
        }
        // The pairs: the last steady sample of n opens the first.
        for (let pair = 0; pair < SAMPLE_PAIRS && !context.signal?.aborted; pair++) {
          for (const iterations of pair === 0 ? [2 * n] : [n, 2 * n]) {
            if (!(await sample(iterations))) return { outcome: await live.finish(), dumps };
            if (pair === 0) dumps.push(last);
            dumps.push({ iterations, summary: await control.dump() });
          }
        }
      } catch (error) {
        live.kill();
        const log = control.logTail();
        return { outcome: await live.finish(), dumps, error: `${(error as Error).message}${log ? ` (valgrind: ${log})` : ''}` };
      }
      return { outcome: await live.finish(), dumps, settle };
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
        const plan: Plan = {
          key: `${caseId}\u0000${arm.id}`,
          warm: Math.min(1e6, Math.max(10, Math.round(WARM_NS / ns))),
          first: Math.min(1e6, Math.max(1, Math.round(SIZING_SAMPLE_INSTRUCTIONS / (INSTRUCTIONS_PER_NS * ns)))),
          n: 0,
        };
        return { arm, flags: deterministicFlags(arm), plan };
      });
      const jobs = plans.flatMap((p) => (p ? [() => counted(p.arm, p.flags, caseId, p.plan, context)] : []));
      const results = await pool(jobs, options.parallel);
      let k = 0;
      return arms.map((arm, position): ArmResult => {
        const plan = plans[position];
        if (!plan) return sizes[position] as ArmResult;
        return roundOf(arm, plan.plan, results[k++]!, position, context.round);
      });
    },
  };

  /** The arm's round: the digest and outcome from the process's answer, the count from its dumps. */
  function roundOf(arm: Arm, plan: Plan, run: Counted, position: number, round: number): ArmResult {
    const judged = armResultOf(arm, run.outcome, options.timeoutMs, round, position);
    const fail = (message: string): ArmResult => ({ armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'failure', failure: { kind: 'error', message } }] });
    if (run.error) return fail(`${arm.runner.runtime} under callgrind: ${run.error}`);
    if (judged.outcomes[0]!.kind !== 'round') return judged;
    const pairs: [Dump, Dump][] = [];
    for (let i = 0; i + 1 < run.dumps.length; i += 2) pairs.push([run.dumps[i]!, run.dumps[i + 1]!]);
    if (!pairs.length) return fail(`callgrind counted no sample of ${arm.runner.runtime}`);
    const perOpOf = (f: (s: CountSummary) => number | undefined): number | undefined => {
      const xs = pairs.map(([a, b]) => {
        const x = f(a.summary);
        const y = f(b.summary);
        return x !== undefined && y !== undefined ? (y - x) / (b.iterations - a.iterations) : undefined;
      });
      return xs.every((x) => x !== undefined) ? median(xs as number[]) : undefined;
    };
    const perOp = perOpOf((s) => s.instructions)!;
    if (!(perOp > 0)) return fail(`${plan.n} more calls counted ${perOp * plan.n} instructions: too little work to tell apart from what a sample costs besides its calls`);
    // The pair whose difference is the median, for the record's two totals.
    const perPair = pairs.map(([a, b]) => (b.summary.instructions - a.summary.instructions) / plan.n);
    const middle = pairs[perPair.indexOf([...perPair].sort((x, y) => x - y)[perPair.length >> 1]!)]!;
    const l1 = perOpOf((s) => s.l1Misses);
    const ll = perOpOf((s) => s.llMisses);
    const cycles = perOpOf(estimatedCycles);
    const record: RoundRecord = {
      ...(judged.outcomes[0] as { kind: 'round'; record: RoundRecord }).record,
      samples: [perOp],
      iterationsPerSample: plan.n,
      warmupIterations: plan.warm,
      wallMs: run.outcome.wallMs,
      counts: {
        tool: `valgrind callgrind${options.cacheSim ? ' --cache-sim=yes' : ''}, counter zeroed and dumped around samples of one process`,
        iterations: [middle[0].iterations, middle[1].iterations],
        instructions: [middle[0].summary.instructions, middle[1].summary.instructions],
        dumps: run.dumps.map((d) => [d.iterations, d.summary.instructions]),
        ...(run.settle ? { settle: run.settle } : {}),
        ...(l1 !== undefined ? { l1MissesPerOp: l1 } : {}),
        ...(ll !== undefined ? { llMissesPerOp: ll } : {}),
        ...(cycles !== undefined ? { estimatedCyclesPerOp: cycles } : {}),
      },
    };
    delete record.sampleStartMs;
    return { armId: arm.id, warnings: judged.warnings, outcomes: [{ kind: 'round', record }] };
  }
}
