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
 * And the samples must explain their exchanges (EXPLAINED_SHARE), and the
 * CPU time their process ran over the set (CPU_SHARE), whatever route shrank
 * them. The rules and what they caught: docs/lockstep.md "Host-clock
 * corroboration".
 */
import type { RoundRecord } from '@rtbench/core/schema';
import type { SampleReading, ThreadSchedule } from '@rtbench/process';
import type { MeasureOptions } from '@rtbench/core/protocol';

/**
 * An exchange (as the process timed it, or as the host waited for it) less
 * the run-up the host asked for (--run-up), which no sample accounts for; a
 * hundredth of it at least. An exchange shorter than the run-up asked is a
 * span shrunk with its samples, which the rules that hold the exchange
 * itself tell: the kernel's CPU count, or the host's wait.
 */
function lessRunUp(exchangeMs: number, runUpMs: number): number {
  return Math.max(exchangeMs - runUpMs, 0.01 * exchangeMs);
}

/** Slack beyond the clocks' resolution: the µs rounding of sampleStartMs and the host's timer. */
const READING_SLACK_MS = 0.01;

const ms = (x: number): string => `${+x.toPrecision(3)} ms`;
const percent = (share: number): string => `${+(share * 100).toPrecision(2)}%`;

/**
 * What the best sample of an honest set accounts for, at least: of the
 * exchange as the process timed it (`spanNs`: a quarter or a whole batch untimed, the
 * batch, the harness's work around them), a tenth; of the exchange as the
 * host waited for it, a fiftieth, since that wait also holds the pipe's
 * round trip and both sides' wake-ups, which a loaded machine stretches to
 * many batches. A process that shrinks its figures (a replaced write, a
 * patched clock, a rewritten message) shrinks every sample's share by the
 * same factor. A loaded machine can stretch every exchange of a short set
 * on the process's own clock too; where the kernel counts the main thread's
 * CPU, such a set passes when its batches together account for a tenth of
 * the time the thread ran in them (ranShare). The shares in saved runs:
 * docs/measurements/lockstep.md.
 */
const EXPLAINED_SHARE = { ofSpan: 0.1, ofWait: 0.02 };

/**
 * What an honest set's exchanges, as the process timed them (`spanNs`; its
 * samples where it gives no spans), account for, at least, of the CPU time
 * the main thread of its process ran over the set as the kernel counts it.
 * The exchanges run there, where every runtime runs JavaScript; the
 * engine's helper threads (its compilers, its collector) run beside it and
 * can outrun it over a short set (a large bundle compiled while it is
 * sampled), so neither the whole process nor its busiest thread is a bound
 * an honest thread's clock must meet.
 * Unlike the host's wait, this does not grow when the machine is loaded (a
 * thread waiting for a core runs nothing), and no case can change it;
 * exchanges shrunk 100x account for about 1%. The samples themselves are
 * held against the spans (EXPLAINED_SHARE), so both figures a process sends
 * are checked: that rule and this one together. Spans, not samples, are held
 * here because an emulated runtime's harness work around each batch is
 * honest CPU the batch does not account for. Where the kernel's count is at
 * hand it replaces the share of the host's wait.
 */
const CPU_SHARE = 0.1;

/**
 * The share asked of a window in which the thread also waited for a core. A
 * wait inside a batch lengthens its figure honestly, so a figure shrunk 100x
 * reads up to (run + wait) / (100 · run) of what the thread ran: on a machine
 * that kept the thread waiting nine times what it ran it would meet a tenth.
 * An honest figure reads its share whatever the wait, but that share can be
 * low with no wait at all (a smoke run's async batch of a tenth of a
 * millisecond, the harness's own work around it several times that), and a
 * wait before the batch (the wake-up after the command) raises no honest
 * share. So the share asked stays CPU_SHARE until a 100x-shrunk figure could
 * read half of it, then asks twice what such a figure could read, up to
 * MAX_SHARE_ASKED.
 */
function shareAsked(schedule: ThreadSchedule | undefined): number {
  if (schedule === undefined || schedule.runNs <= 0) return CPU_SHARE;
  const shrunkCouldRead = (1 + schedule.waitNs / schedule.runNs) / SHRINK_TOLD;
  return Math.min(MAX_SHARE_ASKED, Math.max(CPU_SHARE, 2 * shrunkCouldRead));
}

/** The shrink the CPU rule is built to tell: the forgers of test/forged-figures.test.ts divide by it. */
const SHRINK_TOLD = 100;

/** The most shareAsked asks: past it (the thread waited 24 times what it ran) only a figure shrunk 50x or more is told. */
const MAX_SHARE_ASKED = 0.5;

type Corroborated = Pick<RoundRecord, 'samples' | 'sampleStartMs' | 'iterationsPerSample' | 'clock' | 'untimedWork'>;

/**
 * Why a lockstep set's samples cannot be believed, in one line; undefined
 * when the host's clock agrees. What the host read of the process itself:
 * `threadCpuNs`, the CPU time its main thread ran from the set's first
 * command to its last answer (undefined where the kernel cannot say); and
 * `emulator`, the user-mode emulator it runs under, whose own translation
 * on the same threads leaves no share an honest process must account for,
 * so only the clocks are held against each other (its times are behaviour
 * only: docs/platforms.md).
 */
export function corroborate(
  record: Corroborated,
  readings: readonly SampleReading[],
  host: { threadCpuNs?: number | undefined; ownMainThread?: ThreadSchedule | undefined; emulator?: string | undefined; runUpMs?: number | undefined } = {},
): string | undefined {
  const { threadCpuNs, emulator } = host;
  const runUpMs = host.runUpMs ?? 0;
  const tickMs = record.clock.resolutionNs / 1e6;
  const slack = 2 * tickMs + READING_SLACK_MS;
  let tooLong = 0;
  const best = { ofSpan: 0, ofWait: 0 };
  let spans = readings.length > 0;
  readings.forEach((r, i) => {
    const claimedMs = claimedMsOf(record, i);
    const waitedMs = r.receivedMs - r.sentMs;
    if (claimedMs > waitedMs + slack) tooLong++;
    best.ofWait = Math.max(best.ofWait, shareOf(claimedMs, lessRunUp(waitedMs, runUpMs), slack));
    if (r.spanNs === undefined) spans = false;
    else best.ofSpan = Math.max(best.ofSpan, shareOf(claimedMs, lessRunUp(r.spanNs / 1e6, runUpMs), slack));
  });
  if (tooLong) return `${tooLong} of ${readings.length} samples claimed more time than the host waited for them: the process's clock cannot be trusted, so the set is not used`;
  const clockDoubt = clockAdvance(record.sampleStartMs, readings, slack);
  if (clockDoubt) return clockDoubt;
  // A case whose calls run untimed work of their own (hooks, self-timed regions) makes the exchange longer than its samples, honestly.
  if (!readings.length || record.untimedWork || emulator) return undefined;
  const atBest = (share: number): string => `at best ${percent(share)}`;
  if (spans && best.ofSpan < EXPLAINED_SHARE.ofSpan) {
    const ran = threadCpuNs === undefined ? undefined : ranShare(record, readings, threadCpuNs / 1e6, slack);
    if (ran === undefined || ran < EXPLAINED_SHARE.ofSpan) {
      const cpu = ran === undefined ? '' : `, and its batches together ${percent(ran)} of the time its main thread ran in them`;
      return `no sample accounts for a tenth of the time its exchange took on the process's own clock (${atBest(best.ofSpan)}${cpu}): the figures are smaller than the process's clock allows, so the set is not used`;
    }
  }
  if (threadCpuNs !== undefined) {
    let timedMs = 0;
    readings.forEach((_, i) => (timedMs += timedMsOf(record, readings, i, spans)));
    const share = shareOf(timedMs, threadCpuNs / 1e6, slack);
    // The waits are those of the thread whose run was read: the process's own main thread, where it is the runtime's.
    const own = host.ownMainThread !== undefined && host.ownMainThread.runNs >= OWN_THREAD_SHARE * threadCpuNs ? host.ownMainThread : undefined;
    const waited = own && (inExchanges(readings) ?? own);
    const asked = shareAsked(waited);
    if (share >= asked) return undefined;
    const exchange = own && medianExchangeShare(record, readings, spans, slack);
    if (exchange !== undefined && exchange.share >= exchange.asked) return undefined;
    // Where the thread's waits raised the share asked, its quietest exchange tells instead (QUIET_SPAN_SHARE).
    const raised = asked > CPU_SHARE || (exchange !== undefined && exchange.asked > CPU_SHARE);
    const quiet = raised && spans ? quietestSpanShare(readings, tickMs) : undefined;
    if (quiet !== undefined && quiet >= QUIET_SPAN_SHARE) return undefined;
    const what = spans ? 'its exchanges, as the process timed them,' : 'its samples';
    const median = exchange === undefined ? '' : `, its median exchange ${percent(exchange.share)} of what the thread ran in it${exchange.asked > CPU_SHARE ? ` (${percent(exchange.asked)} asked)` : ''}`;
    const quietest = quiet === undefined ? '' : `, its best span ${percent(quiet)} of the host's wait for it (a fiftieth asked)`;
    return `${what} account for ${percent(share)} of the CPU time the main thread of its process ran over the set (${ms(threadCpuNs / 1e6)}, read by the host from the kernel; ${atLeast(asked, waited)}${median}${quietest}): the figures are smaller than the host's clock allows, so the set is not used`;
  }
  if (best.ofWait < EXPLAINED_SHARE.ofWait) {
    return `no sample accounts for a fiftieth of the time the host waited for it (${atBest(best.ofWait)}): the figures are smaller than the host's clock allows, so the set is not used`;
  }
  return undefined;
}

/**
 * The set's timed batches against the time its main thread ran in their
 * exchanges: no more than the exchanges' spans, nor than the CPU time the
 * kernel counted for the thread over the set. A process descheduled inside
 * every exchange (a loaded machine, few samples) has spans its batches
 * explain only in part, while the kernel counts none of the wait; a figure
 * shrunk on its way out shrinks this share as much as the spans' (the batches
 * ran on that thread, so neither bound is under their true time).
 */
function ranShare(record: Corroborated, readings: readonly SampleReading[], threadCpuMs: number, slack: number): number {
  let claimedMs = 0;
  let spannedMs = 0;
  readings.forEach((r, i) => {
    claimedMs += claimedMsOf(record, i);
    spannedMs += r.spanNs! / 1e6;
  });
  return shareOf(claimedMs, Math.min(spannedMs, threadCpuMs), slack * readings.length);
}

/**
 * The median exchange's timed span (its sample where it gives none) against
 * the CPU its process's main thread ran from the command to the answer, and
 * the share asked of it for what the thread waited for a core there: the
 * set's count also holds what the thread ran while it waited its turn (a
 * collection, the engine's idle tasks), which over a short set can be most of
 * it, while a shrunk figure reads small in every exchange. The median by the
 * share over what is asked, not the best: a reading the kernel had not yet
 * brought up to date (a thread still running as it is read) errs high in one
 * exchange, not in most. Undefined where the host read no exchange's CPU.
 * Called only where the process's own main thread is the runtime's (not a
 * launcher above it: its main thread ran under nine tenths of the busiest
 * main thread's count).
 */
function medianExchangeShare(record: Corroborated, readings: readonly SampleReading[], spans: boolean, slack: number): { share: number; asked: number } | undefined {
  const exchanges: { share: number; asked: number }[] = [];
  readings.forEach((r, i) => {
    if (r.mainThreadNs === undefined) return;
    const share = shareOf(timedMsOf(record, readings, i, spans), r.mainThreadNs / 1e6, slack);
    exchanges.push({ share, asked: shareAsked({ runNs: r.mainThreadNs, waitNs: r.mainThreadWaitNs ?? 0 }) });
  });
  if (!exchanges.length) return undefined;
  exchanges.sort((a, b) => a.share / a.asked - b.share / b.asked);
  return exchanges[Math.floor((exchanges.length - 1) / 2)];
}

/**
 * What the main thread ran and waited for a core inside the set's exchanges,
 * where a wait lengthens a figure (between them it lengthens nothing: a
 * process woken for its idle work while it waits its turn); undefined where
 * the host read no exchange.
 */
function inExchanges(readings: readonly SampleReading[]): ThreadSchedule | undefined {
  let runNs = 0;
  let waitNs = 0;
  for (const r of readings) {
    if (r.mainThreadNs === undefined) return undefined;
    runNs += r.mainThreadNs;
    waitNs += r.mainThreadWaitNs ?? 0;
  }
  return readings.length ? { runNs, waitNs } : undefined;
}

/** The share asked of the set, in words: a tenth, or more for the time the thread waited for a core. */
function atLeast(asked: number, waited: ThreadSchedule | undefined): string {
  if (asked <= CPU_SHARE || waited === undefined) return 'a tenth at least';
  return `${percent(asked)} at least, as its main thread also waited ${ms(waited.waitNs / 1e6)} for a core in its exchanges`;
}

/**
 * What the best exchange's span accounts for, at least, of the host's whole
 * wait for it, where the main thread's waits for a core raised the CPU
 * share asked. No process's span can exceed the host's wait (it lies
 * inside it), so a span shrunk 100x reads a hundredth at most, however
 * loaded the machine; an honest span reads most of a quiet exchange, and
 * a loaded machine, which stretches some exchanges with wake-ups outside
 * the span, leaves others quiet (a set takes more turns until one is:
 * lockstep.ts). Only where the thread waited is this the rule: there the
 * CPU share asked already tells only a shrink of 50x or more, while on a
 * quiet machine the CPU share tells a tenth.
 */
const QUIET_SPAN_SHARE = 1 / 50;

/** An exchange's clock error, in ticks of the process's clock, must be under this share of the host's wait for its span to count. */
const QUIET_TICK_SHARE = 0.01;

/**
 * The best share of the host's wait for an exchange that the process's span
 * of it accounts for, over exchanges long enough for the process's clock to
 * say (two ticks under a hundredth of the wait: a whole-millisecond clock
 * counts only exchanges of 200 ms or more); undefined where none is, or a
 * reading has no span.
 */
export function quietestSpanShare(readings: readonly Pick<SampleReading, 'spanNs' | 'waitedNs'>[], tickMs: number): number | undefined {
  let best: number | undefined;
  for (const r of readings) {
    if (r.spanNs === undefined) return undefined;
    const waitedMs = r.waitedNs / 1e6;
    if (waitedMs <= 0 || 2 * tickMs > QUIET_TICK_SHARE * waitedMs) continue;
    best = Math.max(best ?? 0, r.spanNs / 1e6 / waitedMs);
  }
  return best;
}

/**
 * Whether a lockstep set should take another turn for this arm before it is
 * judged: the kernel counts its main thread (Linux), the process gives
 * spans, it runs natively, and no exchange yet is quiet enough for
 * QUIET_SPAN_SHARE to tell. Read without the process's clock tick, which
 * only its result says: a whole-millisecond clock's short exchanges can end
 * the added turns although corroborate() does not count them.
 */
export function wantsQuietExchange(readings: readonly SampleReading[], emulator: string | undefined): boolean {
  if (emulator !== undefined || !readings.length || readings.some((r) => r.mainThreadNs === undefined)) return false;
  const quiet = quietestSpanShare(readings, 0);
  return quiet !== undefined && quiet < QUIET_SPAN_SHARE;
}

/** How much of the busiest main thread's count the process's own main thread must have run for its exchanges' readings to stand for it. */
const OWN_THREAD_SHARE = 0.9;

/** The ms sample `i`'s batch claims. */
const claimedMsOf = (record: Corroborated, i: number): number => (record.samples[i]! * record.iterationsPerSample) / 1e6;

/** The ms exchange `i` took as the process timed it (its span), or its batch where the process gives no spans. */
const timedMsOf = (record: Corroborated, readings: readonly SampleReading[], i: number, spans: boolean): number => (spans ? readings[i]!.spanNs! / 1e6 : claimedMsOf(record, i));

/** The share of an exchange's `totalMs` that `claimedMs` accounts for, within the clocks' slack. */
function shareOf(claimedMs: number, totalMs: number, slack: number): number {
  return totalMs > slack ? (claimedMs + slack) / totalMs : 1;
}

/** The process's clock between its first and last sample against the host's window for them. */
function clockAdvance(starts: readonly number[] | undefined, readings: readonly SampleReading[], slack: number): string | undefined {
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
 * own lateness in reading it, which only the host's span includes. The
 * lateness the host measured (its event loop's longest delay in the span)
 * is taken off first; what it cannot see (a read late by less than its
 * watch's tick, a pipe's delay) is the margin, so only a clock that ran
 * under a quarter of its speed (or stood still) is told from a late read.
 */
const ANSWER_DELAY_MARGIN_MS = 50;
const ANSWER_DELAY_MARGIN_SHARE = 0.75;

/**
 * A fresh process: `elapsedMs` on its clock from before its hello to its
 * answer, against `hostMs` between reading the two, of which the host's own
 * event loop ran up to `hostLateMs` late. Undefined when they agree.
 */
export function corroborateProcess(elapsedMs: number, hostMs: number, resolutionNs: number, hostLateMs = 0): string | undefined {
  const spanMs = Math.max(0, hostMs - hostLateMs);
  const allowed = spanMs - ANSWER_DELAY_MARGIN_MS - ANSWER_DELAY_MARGIN_SHARE * spanMs - (2 * resolutionNs) / 1e6;
  if (elapsedMs >= allowed) return undefined;
  const late = hostLateMs >= 1 ? ` (the host itself ran up to ${ms(hostLateMs)} late)` : '';
  return `the process's clock advanced ${ms(elapsedMs)} from its hello to its answer while the host saw ${ms(hostMs)} pass${late}: something changed the clock the case is timed with, so the round is not used`;
}

const SAMPLING_SHARE = 0.1;

/**
 * A fresh process's samples against the sampling time the host asked for:
 * the in-runtime loop samples until its clock (corroborated above) has run
 * `timeMs`, so honest samples fill most of it; figures shrunk on their way
 * to the host fill under SAMPLING_SHARE of it. Undefined when they agree.
 */
export function corroborateSampling(record: Pick<RoundRecord, 'samples' | 'iterationsPerSample' | 'untimedWork'>, options: Pick<MeasureOptions, 'timeMs' | 'maxSamples'>): string | undefined {
  if (record.untimedWork || record.samples.length >= options.maxSamples) return undefined;
  let claimedMs = 0;
  for (const x of record.samples) claimedMs += (x * record.iterationsPerSample) / 1e6;
  if (claimedMs >= SAMPLING_SHARE * options.timeMs) return undefined;
  return `its samples account for ${ms(claimedMs)} of the ${ms(options.timeMs)} its clock sampled for: the figures are smaller than the host's clock allows, so the round is not used`;
}
