/** Reading the host's reference-loop probe (recorded per process) back out of a run. */
import type { RunRecord } from '@rtbench/core/schema';

/** A process ran on a slow machine when the probe before it took this much longer than the run's best. */
export const SLOW_MACHINE_FACTOR = 1.25;

export interface MachineSlowdown {
  processes: number;
  slow: number;
  /** The slowest probe relative to the best one. */
  worst: number;
}

export function machineSlowdown(run: RunRecord): MachineSlowdown | undefined {
  const probes = run.results.flatMap((r) => r.rounds.flatMap((round) => (round.machineProbeNs === undefined ? [] : [round.machineProbeNs])));
  if (probes.length < 2) return undefined;
  const best = Math.min(...probes);
  const slow = probes.filter((p) => p > SLOW_MACHINE_FACTOR * best).length;
  return { processes: probes.length, slow, worst: Math.max(...probes) / best };
}

/** One line for the notes under a table, or undefined when the machine kept its speed. */
export function machineNote(run: RunRecord): string | undefined {
  const m = machineSlowdown(run);
  if (!m || m.slow === 0) return undefined;
  return (
    `! the machine itself was slow before ${m.slow} of ${m.processes} processes (a reference loop took up to ${m.worst.toFixed(1)}× its best): ` +
    `a noisy neighbour or CPU throttling. Wide CIs here come from the machine, not the runtime; rerun when it is quiet or add --rounds.`
  );
}
