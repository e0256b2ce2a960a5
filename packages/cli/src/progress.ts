/**
 * Progress on stderr: one updating line on a terminal, one line per finished
 * job otherwise (CI logs). stdout stays clean for --json.
 */
import pc from 'picocolors';
import { formatDuration } from '@rtbench/report';
import type { ProgressEvent } from './run.ts';

export function progressPrinter(stream: NodeJS.WriteStream = process.stderr): { update(e: ProgressEvent): void; finish(): void } {
  const tty = stream.isTTY === true;
  const width = (): number => stream.columns ?? 120;
  let shown = false;
  return {
    update(e) {
      const count = `[${String(e.done).padStart(String(e.total).length)}/${e.total}]`;
      const where = `round ${e.round + 1}/${e.rounds} · ${e.variantId} · ${e.caseId}`;
      if (!e.outcome) {
        if (tty) {
          stream.write(`\r\x1b[K${pc.dim(count)} ${where} …`.slice(0, width() + 20));
          shown = true;
        }
        return;
      }
      const result =
        e.outcome.status === 'ok' ? (e.outcome.text ?? `${formatDuration(e.outcome.medianNs)}/op`) : e.outcome.status === 'unsupported' ? pc.yellow('unsupported') : pc.red(`failed: ${e.outcome.message.split('\n')[0]}`);
      if (tty) {
        stream.write(`\r\x1b[K${pc.dim(count)} ${where} ${result}`.slice(0, width() + 20));
        shown = true;
      } else {
        stream.write(`${count} ${where}: ${result}\n`);
      }
    },
    finish() {
      if (tty && shown) stream.write('\r\x1b[K');
    },
  };
}
