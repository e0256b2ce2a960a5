/**
 * Fresh processes: each arm of a replicate is one new process that warms up
 * and samples back to back, the arms one after another in the schedule's
 * order. The spread between processes is in every interval, but the two
 * halves of a pair run hundreds of milliseconds apart, so they need not share
 * the machine's state (docs/lockstep.md); lockstep is the default for that
 * reason. Still right for a case whose one sample is long (≥ ~50 ms), for
 * runtimes that cannot hold a conversation, and to reproduce older runs.
 */
import type { MeasureOptions } from '@rtbench/core';
import type { Job } from '@rtbench/core/protocol';
import type { Arm, ArmResult, Measurer, ReplicateContext, Unit } from '../measurer.ts';
import { armResultOf } from './judge.ts';

export const PROCESSES_DESCRIPTION = 'processes: one fresh process per case, variant and round, sampling back to back';

export function processesMeasurer(options: MeasureOptions, timeoutMs: number): Measurer {
  return {
    description: PROCESSES_DESCRIPTION,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const caseId = unit.cases[0]!.id;
      const out: ArmResult[] = [];
      for (const [position, arm] of arms.entries()) {
        if (context.signal?.aborted) break;
        context.onArmStart?.(arm);
        const job: Job = { protocol: 1, kind: 'measure', caseId, options };
        const outcome = await arm.runner.runJob({ target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs, ...(context.signal ? { signal: context.signal } : {}) });
        out.push(armResultOf(arm, outcome, timeoutMs, context.round, position));
      }
      return out;
    },
  };
}
