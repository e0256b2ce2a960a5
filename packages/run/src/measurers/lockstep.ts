/**
 * Lockstep: one replicate of a case is a set of live processes, one per arm,
 * started and warmed together, then asked for one sample each in turn, the
 * order rotating every turn, so that neighbouring samples of different arms
 * are milliseconds apart and share the machine's state (it switches between a
 * fast and a slow state every few ms here: docs/two-speed-noise.md). The set
 * is the unit of replication: several sets give the spread between processes
 * (JIT decisions, code and heap layout), and the paired ratio of a set is the
 * Hodges–Lehmann estimate over its turns of the per-turn log ratios (stats'
 * pairRounds).
 */
import type { MeasureOptions } from '@rtbench/core';
import type { Job } from '@rtbench/core/protocol';
import type { LiveCase } from '@rtbench/runner-kit';
import type { Arm, ArmResult, Measurer, ReplicateContext, Unit } from '../measurer.ts';
import { armResultOf } from './judge.ts';

export interface LockstepOptions {
  /** Warmup (adaptive when warmupMinMs is set) and the sample length, as in a fresh process. */
  measure: MeasureOptions;
  /** Sampling time each arm gets in one set, in ms: sets the number of turns. */
  sampleTimeMs: number;
  /** Turns per set at least / at most, whatever the samples' length. */
  minTurns: number;
  maxTurns: number;
  timeoutMs: number;
}

export const LOCKSTEP_DESCRIPTION =
  'lockstep: per case and set, one live process per variant, warmed together, then one sample each in turn (order rotating every turn, an untimed quarter batch before each sample)';

/** How many turns a set takes: the sampling time over the longest arm's sample. */
export function turnsFor(options: Pick<LockstepOptions, 'sampleTimeMs' | 'minTurns' | 'maxTurns'>, batchNs: readonly number[]): number {
  const longest = Math.max(1, ...batchNs);
  const turns = Math.ceil((options.sampleTimeMs * 1e6) / longest);
  return Math.min(options.maxTurns, Math.max(options.minTurns, turns));
}

export function lockstepMeasurer(options: LockstepOptions): Measurer {
  return {
    description: LOCKSTEP_DESCRIPTION,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const caseId = unit.cases[0]!.id;
      const job: Job = { protocol: 1, kind: 'lockstep', caseId, options: options.measure };
      // Start-up and warmup are not measured: the processes start together and warm up side by side.
      const sessions: LiveCase[] = arms.map((arm) => {
        context.onArmStart?.(arm);
        return arm.runner.startSession({ target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs: options.timeoutMs, ...(context.signal ? { signal: context.signal } : {}) });
      });
      const ready = await Promise.all(sessions.map((s) => s.ready));
      let live = arms.map((_, i) => i).filter((i) => ready[i] !== undefined);
      const positions: number[][] = arms.map(() => []);
      const turns = turnsFor(options, live.map((i) => ready[i]!.batchNs));
      for (let turn = 0; turn < turns && live.length && !context.signal?.aborted; turn++) {
        const order = [...live.slice(turn % live.length), ...live.slice(0, turn % live.length)];
        const gone: number[] = [];
        for (const [position, i] of order.entries()) {
          const ns = await sessions[i]!.sample();
          if (ns === undefined) gone.push(i);
          else positions[i]!.push(position);
        }
        if (gone.length) live = live.filter((i) => !gone.includes(i));
      }
      const outcomes = await Promise.all(sessions.map((s) => s.finish()));
      return arms.map((arm, i) => {
        const result = armResultOf(arm, outcomes[i]!, options.timeoutMs, context.round, i, { lockstep: { positions: positions[i]! } });
        const outcome = result.outcomes[0]!;
        // The result repeats every sample the host asked for, in turn order; anything else breaks the pairing.
        if (outcome.kind === 'round' && outcome.record.samples.length !== positions[i]!.length) {
          result.outcomes[0] = {
            kind: 'failure',
            failure: { kind: 'error', message: `the ${arm.runner.runtime} process answered with ${outcome.record.samples.length} samples after ${positions[i]!.length} turns` },
          };
        }
        return result;
      });
    },
  };
}
