/**
 * Progress on stderr (stdout stays clean for --format output).
 *   On a terminal: one updating line with a bar, the count, the ETA and the
 *   job in hand.
 *   Otherwise (a pipe, a CI log; CI set): a plain line when a tenth of the
 *   planned jobs is done, and a line for every failure; not one per process.
 *   Unsupported jobs: one line per runtime and reason, and a count at the end.
 * The ETA is the mean time per finished job times the jobs left; while rounds
 * are added adaptively it is bounded by the run's time budget.
 */
import pc from 'picocolors';
import { colourOn, columnsOf } from '../emit/colours.ts';
import { firstLine, formatClock, formatDuration, printable, shownName, counted, truncateToWidth } from '@rtbench/report';
import type { ProgressEvent } from '@rtbench/run';

/**
 * Time left for the jobs planned so far (the mean per finished job times the
 * jobs left). While rounds are added adaptively it is capped by the budget.
 */
export function etaMs(e: Pick<ProgressEvent, 'done' | 'total' | 'elapsedMs' | 'adaptive'>, budgetMs?: number): number | undefined {
  if (e.done === 0) return undefined;
  const left = (e.elapsedMs / e.done) * Math.max(0, e.total - e.done);
  return e.adaptive && budgetMs !== undefined ? Math.min(left, Math.max(0, budgetMs - e.elapsedMs)) : left;
}

/** Before adaptive rounds: how much of the time budget may still go to added rounds after the planned ones. */
export function addedRoundsMs(e: Pick<ProgressEvent, 'elapsedMs' | 'adaptive'>, left: number, budgetMs?: number): number {
  return !e.adaptive && budgetMs !== undefined ? Math.max(0, budgetMs - e.elapsedMs - left) : 0;
}

/** "[██████░░░░░░]": `width` cells, done/total filled. */
export function bar(done: number, total: number, width = 20): string {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

export interface ProgressPrinter {
  update(e: ProgressEvent): void;
  finish(): void;
}

export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, options: { budgetMs?: number; ci?: boolean } = {}): ProgressPrinter {
  const live = stream.isTTY === true && !(options.ci ?? Boolean(process.env['CI']));
  const c = pc.createColors(colourOn(stream));
  const width = (): number => columnsOf(stream);
  let shown = false;
  let lastTenth = 0;
  // An unsupported case is said once per runtime and reason, not once per job:
  // a file whose every case is unsupported on workerd gives one line, and the
  // table lists the cases.
  const saidUnsupported = new Set<string>();
  let quietUnsupported = 0;
  const shouldSay = (e: ProgressEvent, failed: NonNullable<ProgressEvent['outcome']>): boolean => {
    if (failed.status !== 'unsupported') return true;
    const key = `${e.variantId}\u0000${firstLine(failed.message)}`;
    if (!saidUnsupported.has(key)) return saidUnsupported.add(key), true;
    quietUnsupported++;
    return false;
  };
  const status = (e: ProgressEvent): string => {
    const eta = etaMs(e, options.budgetMs);
    const added = eta !== undefined ? addedRoundsMs(e, eta, options.budgetMs) : 0;
    const etaText = eta === undefined ? '' : ` · ETA ${formatClock(eta)}${added >= 1000 ? ` (+ up to ${formatClock(added)} of added rounds)` : ''}`;
    const round = e.adaptive ? `round ${e.round + 1} (added)` : `round ${e.round + 1}/${e.rounds}`;
    // The share of the wall time spent in timed samples: what the run buys with its time.
    const timed = e.timedMs > 0 && e.elapsedMs > 0 ? ` · ${Math.round((100 * e.timedMs) / e.elapsedMs)}% timed` : '';
    return `${e.done}/${e.total} · ${formatClock(e.elapsedMs)} elapsed${etaText} · ${round}${timed}`;
  };
  return {
    update(e) {
      const outcome = e.outcome && e.outcome.status !== 'ok' ? e.outcome : undefined;
      const failed = outcome && shouldSay(e, outcome) ? outcome : undefined;
      if (live) {
        const job = printable(`${e.variantId} · ${shownName(e.caseId)}`);
        const result = e.outcome?.status === 'ok' ? ` ${e.outcome.text ?? `${formatDuration(e.outcome.medianNs)}/op`}` : '';
        if (failed) stream.write(`\r\x1b[K${failed.status === 'unsupported' ? c.yellow('unsupported') : c.red('failed')}: ` +
          `${job}: ${printable(firstLine(failed.message))}\n`);
        const line = `${bar(e.done, e.total)} ${status(e)} · ${job}${result}`;
        stream.write(`\r\x1b[K${truncateToWidth(line, width() - 1)}`);
        shown = true;
        return;
      }
      if (failed) stream.write(printable(`${failed.status}: ${e.variantId} · ${shownName(e.caseId)}: ${firstLine(failed.message)}`) + '\n');
      if (!e.outcome) return;
      const tenth = e.total > 0 ? Math.floor((e.done / e.total) * 10) : 0;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`progress ${status(e)}\n`);
      }
    },
    finish() {
      if (live && shown) stream.write('\r\x1b[K');
      if (quietUnsupported > 0) stream.write(`unsupported: ${counted(quietUnsupported, 'more job')} for the same reasons (the table lists every case)\n`);
    },
  };
}
