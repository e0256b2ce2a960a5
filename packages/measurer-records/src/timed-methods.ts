/**
 * What the timing measurers' records (lockstep, fresh processes, host-timed)
 * share: the field saying their processes collected before sampling, and in
 * their describe() how a paired and an unpaired ratio of times are made, and
 * the lengths a round's description quotes.
 */
import type { MeasuredBy, RunRecord } from '@rtbench/core/schema';
import { z } from 'zod';

/**
 * The timing measurers' own fields of a saved run: whether processes
 * collected before sampling, and whether it was a smoke run (a fixed
 * warmup, samples not grown to span collections) and how many samples it
 * took of a case per process or set, with no collection between cases
 * (absent in smoke runs saved before it took so few); absent: they did not.
 */
export const collectedFieldSchema = z.object({ collectBeforeSampling: z.literal(true).optional(), smoke: z.literal(true).optional(), smokeSamples: z.number().int().positive().optional() });

const PAIRED_TIMES = 'paired: per set, the log ratio ln(candidate/baseline) (a lockstep set: the Hodges–Lehmann estimate of its per-turn ratios); per process pair, the mean of its sets; the ratio is the mean over process pairs, with a Student t interval on them';
const UNPAIRED_TIMES = "unpaired: difference of the runs' mean log times over their processes (a process: the mean of its rounds), Welch t interval";

/** A timing measurer's description: its round in its words, timing's ratios; the median and interval are said from the rows (no `stats`). */
export function timedMethod(rounds: string): MeasuredBy {
  return { rounds, paired: PAIRED_TIMES, unpaired: UNPAIRED_TIMES };
}

function msText(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${+ms.toFixed(1)} ms`;
}

/**
 * "240 ms" of sampling per arm and round, and "100 ms–300 ms warmup
 * (adaptive)"; a smoke run's (--fixed-warmup, recorded as `smoke`) says its
 * samples were not grown to span collections, and how many it took, so its
 * figures are not read as measurements.
 */
export function roundLengths(o: RunRecord['options']): { perArm: string; warmup: string } {
  const fields = collectedFieldSchema.safeParse(o.measurerFields ?? {});
  const smoke = fields.success && fields.data.smoke === true;
  const samples = fields.success && fields.data.smokeSamples !== undefined ? `${fields.data.smokeSamples} samples a case whatever the sampling time, ` : '';
  const fixed = smoke ? `${msText(o.warmupMs)} fixed warmup (a smoke run: ${samples}samples not grown to span collections, figures not measurements)` : `${msText(o.warmupMs)} warmup`;
  const warmup = o.warmupMinMs !== undefined ? `${msText(o.warmupMinMs)}–${msText(o.warmupMs)} warmup (adaptive)` : fixed;
  return { perArm: msText(o.timeMs / o.rounds), warmup };
}
