/**
 * The host's clock against the runtime's, a check that does not depend on how
 * a case might change what the in-runtime loop reads. Both are the machine's
 * monotonic clock, so between two lockstep samples the process's clock
 * (sampleStartMs) must advance by no less than the host saw between reading
 * the first answer and sending the second command, and no more than between
 * sending the first command and reading the second answer: descheduling widens
 * the window but never moves a bound the wrong way, so no threshold is tuned
 * to the machine. A timed batch longer than the whole exchange fails too. A
 * fresh process: its hello-to-answer time against the host's, with a margin.
 * The rule and what it caught: docs/lockstep.md "Host-clock corroboration".
 */
import type { RoundRecord } from '@rtbench/core/schema';
import type { SampleReading } from '@rtbench/process';

/** Slack beyond the clocks' resolution: the µs rounding of sampleStartMs and the host's timer. */
const READING_SLACK_MS = 0.01;

const ms = (x: number): string => `${+x.toPrecision(3)} ms`;

/** Why a lockstep set's samples cannot be believed, in one line; undefined when the host's clock agrees. */
export function corroborate(record: Pick<RoundRecord, 'samples' | 'sampleStartMs' | 'iterationsPerSample' | 'clock'>, readings: readonly SampleReading[]): string | undefined {
  const tickMs = record.clock.resolutionNs / 1e6;
  const slack = 2 * tickMs + READING_SLACK_MS;
  let tooLong = 0;
  readings.forEach((r, i) => {
    if ((record.samples[i]! * record.iterationsPerSample) / 1e6 > (r.receivedMs - r.sentMs) + slack) tooLong++;
  });
  if (tooLong) return `${tooLong} of ${readings.length} samples claimed more time than the host waited for them: the process's clock cannot be trusted, so the set is not used`;
  const starts = record.sampleStartMs;
  if (!starts || starts.length !== readings.length || readings.length < 2) return undefined;
  const first = 0;
  const last = readings.length - 1;
  const advanced = starts[last]! - starts[first]!;
  const atLeast = readings[last]!.sentMs - readings[first]!.receivedMs;
  const atMost = readings[last]!.receivedMs - readings[first]!.sentMs;
  if (advanced < atLeast - slack || advanced > atMost + slack) {
    return `the process's clock advanced ${ms(advanced)} between its first and last sample while the host's advanced ${ms(atLeast)}–${ms(atMost)}: something changed the clock the case is timed with, so the set is not used`;
  }
  return undefined;
}

/**
 * Margin for a fresh process's answer: its delay in the pipe and the host's
 * own lateness in reading it, which only the host's span includes. A starved
 * host (a loaded 2-core machine running the whole test suite) read answers
 * 470 ms late in a 689 ms span, so only a clock that ran under a quarter of
 * its speed (or stood still) is told from a late read.
 */
const ANSWER_DELAY_MARGIN_MS = 50;
const ANSWER_DELAY_MARGIN_SHARE = 0.75;

/**
 * A fresh process: `elapsedMs` on its clock from before its hello to its
 * answer, against `hostMs` between reading the two. Undefined when they agree.
 */
export function corroborateProcess(elapsedMs: number, hostMs: number, resolutionNs: number): string | undefined {
  const allowed = hostMs - ANSWER_DELAY_MARGIN_MS - ANSWER_DELAY_MARGIN_SHARE * hostMs - (2 * resolutionNs) / 1e6;
  if (elapsedMs >= allowed) return undefined;
  return `the process's clock advanced ${ms(elapsedMs)} from its hello to its answer while the host saw ${ms(hostMs)} pass: something changed the clock the case is timed with, so the round is not used`;
}
