/**
 * Fresh processes: each arm of a replicate is one new process that warms up
 * and samples back to back, the arms one after another in the schedule's
 * order. The spread between processes is in every interval, but the two
 * halves of a pair run hundreds of milliseconds apart, so they need not share
 * the machine's state (docs/lockstep.md); lockstep is the default for that
 * reason. Still right for a case whose one sample is long (≥ ~50 ms), for
 * runtimes that cannot hold a conversation, and to reproduce older runs.
 */
import { EVERY_PLATFORM } from '@rtbench/host/platform';
import type { MeasureOptions } from '@rtbench/core/measure';
import type { CaseResultMessage, Job } from '@rtbench/core/protocol';
import type { Arm, ArmResult, Measurer, MeasurerDescriptor, ReplicateContext, Unit } from '../measurer.ts';
import { armResultOf, timedMsOf } from './judge.ts';
import { corroborateProcess, corroborateSampling } from './corroborate.ts';
import { timedMeasureOptions } from './measure-options.ts';
import { collectedFields } from './lockstep.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';
import { PROCESSES_RECORD } from '@rtbench/measurer-records';
import { TierUpHorizons, withSteadyRule } from './steady-rule.ts';

export const PROCESSES: MeasurerDescriptor = {
  name: 'processes',
  chosenBy: 'schedule',
  // Whether its processes collected before sampling (the memory view); also how a saved run that names no measurer was measured.
  record: PROCESSES_RECORD,
  platforms: EVERY_PLATFORM,
  measures: 'time per operation',
  timesCalls: true,
  callsBackToBack: true,
  warmsInRuntime: true,
  help: 'a fresh process per case, runtime and round, sampling back to back',
  defaults: TIMING_DEFAULTS,
  build: (setup) => ({ measurer: processesMeasurer(timedMeasureOptions(setup), setup.timeoutMs), ...collectedFields(setup) }),
};

function processesMeasurer(options: MeasureOptions, timeoutMs: number): Measurer {
  const horizons = new TierUpHorizons();
  return {
    descriptor: PROCESSES,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const caseId = unit.cases[0]!.id;
      const out: ArmResult[] = [];
      for (const [position, arm] of arms.entries()) {
        if (context.signal?.aborted) break;
        context.onArmStart?.(arm);
        const told = horizons.told(caseId, arm);
        const job: Job = { protocol: 1, kind: 'measure', caseId, options: withSteadyRule(options, arm.plugin.engine.warmup, told.ns) };
        const outcome = await arm.plugin.runJob({ target: arm.target, flags: arm.flags, bundlePath: arm.bundlePath, job, timeoutMs, ...(context.signal ? { signal: context.signal } : {}) });
        const result = armResultOf(arm, outcome, timeoutMs, context.round, position);
        const round = result.outcomes[0];
        if (round?.kind === 'round') horizons.learn(told.key, caseId, round.record, arm.plugin.engine.warmup, told.ns);
        // The process's clock from its hello to its answer, against the host's (corroborate.ts).
        const elapsedMs = outcome.messages.find((m): m is CaseResultMessage => m.type === 'result')?.elapsedMs;
        const clockDoubt = round?.kind === 'round' && elapsedMs !== undefined && outcome.hostSpanMs !== undefined ? corroborateProcess(elapsedMs, outcome.hostSpanMs, round.record.clock.resolutionNs, outcome.hostLateMs) : undefined;
        const doubt = clockDoubt ?? (round?.kind === 'round' ? corroborateSampling(round.record, options) : undefined);
        if (doubt) result.outcomes[0] = { kind: 'failure', failure: { kind: 'error', message: `${arm.plugin.name}: ${doubt}` } };
        out.push({ ...result, timedMs: timedMsOf(result) });
      }
      return out;
    },
  };
}
