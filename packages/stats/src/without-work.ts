/**
 * A case whose time per call the harness cannot tell from an empty call's:
 * the engine removed its work (a constant folded, a result never used), or it
 * has none. Its fastest process is compared with the lowest floor of its
 * processes (the floor: an empty case timed by the same loop in each
 * process, core's harnessFloor). What moves a figure between processes on
 * one machine (code placement, preemption, a slow state) only adds time, so
 * each side's fastest is its least disturbed reading, and the two agree within
 * a few per cent for an empty case on every runtime, on a loaded machine too.
 * The factor and the figures it was chosen from: docs/writing-a-suite.md,
 * "A case without work".
 */
import { median } from './quantile.ts';

/**
 * A case whose fastest process takes at most this many times the floor is
 * without work: an empty case and a constant read 1.02–1.10× of it on node,
 * deno and bun, one integer add 1.34–1.36× on node (the slowest loop) and
 * 2.2× or more elsewhere (docs/writing-a-suite.md, "A case without work").
 */
export const WITHOUT_WORK_FACTOR = 1.25;

export interface NearFloor {
  /** The case's fastest process: the lowest of its processes' median sample, ns per call. */
  fastestNs: number;
  /** The lowest floor among the same processes, ns per call. */
  floorNs: number;
}

/**
 * The case's fastest process and the lowest floor when the first is within
 * WITHOUT_WORK_FACTOR of the second; undefined when it is not, or when no
 * process took a floor (a floor of 0, a coarse clock's misreading, is none)
 * or gave a reading (a median of 0 beside samples that are not 0 is none).
 * `processes`: each process's samples (ns per call) and its floor.
 */
export function nearFloor(processes: readonly { samples: readonly number[]; floorNs?: number | undefined }[]): NearFloor | undefined {
  let floorNs = Infinity;
  let fastestNs = Infinity;
  for (const p of processes) {
    if (p.floorNs !== undefined && p.floorNs > 0 && p.floorNs < floorNs) floorNs = p.floorNs;
    if (!p.samples.length) continue;
    // A median of 0 ns among samples that are not all 0: the clock did not resolve the case in that process
    // (workerd's coarse clock reads 0 or a whole tick), so it is no reading. All 0: below the clock, at the floor.
    const m = median(p.samples);
    if (m > 0 || p.samples.every((x) => x === 0)) fastestNs = Math.min(fastestNs, m);
  }
  if (!Number.isFinite(floorNs) || !Number.isFinite(fastestNs)) return undefined;
  return fastestNs <= WITHOUT_WORK_FACTOR * floorNs ? { fastestNs, floorNs } : undefined;
}
