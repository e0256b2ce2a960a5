/** Claims for a terminal: per suite, each claim's sentence and its checks, word first; the --across matrix and its flips. Names and sentences keep to their lines (oneLine). */
import { counted, oneLine } from '../text.ts';
import pc from 'picocolors';
import type { ClaimWord } from '@rtbench/core/claims-schema';
import type { ClaimsView } from '../views/claims-types.ts';
import { bySentence, bySuite, claimedText, claimFigure, claimFlipText, claimSides, countsLine, runLine } from '../cells/claims.ts';
import { wrapWords } from './grid.ts';
import type { ReporterOptions } from './reporter.ts';

export function renderClaimsTerminal(view: ClaimsView, options: ReporterOptions): string {
  const c = options.color ? pc : pc.createColors(false);
  const columns = options.columns ?? 100;
  const paint: Record<ClaimWord, (s: string) => string> = { held: c.green, broken: c.red, undecided: c.yellow };
  const lines: string[] = [];
  for (const [suite, outcomes] of bySuite(view.outcomes)) {
    const counts = { held: 0, broken: 0, undecided: 0 };
    for (const o of outcomes) counts[o.word]++;
    lines.push(`${c.bold(oneLine(suite))}: ${counted(outcomes.length, 'check')}, ${countsLine({ counts })}`);
    for (const [says, checks] of bySentence(outcomes)) {
      lines.push(...wrapWords(oneLine(says), columns - 2).map((l) => `  ${l}`));
      lines.push(c.dim(`    claimed: ${oneLine(claimedText(checks[0]!))}`));
      for (const o of checks) {
        // The word first, painted; the rest wrapped to the width under it.
        const text = oneLine(`${claimSides(o)}: ${claimFigure(o)} · ${o.units} units${o.note ? ` (${o.note})` : ''}`);
        wrapWords(text, Math.max(40, columns - 14)).forEach((line, i) => lines.push(i === 0 ? `    ${paint[o.word](o.word.padEnd(9))} ${line}` : `              ${line}`));
      }
    }
    lines.push('');
  }
  if (view.matrix) {
    const m = view.matrix;
    lines.push(c.bold(`claims × ${m.columns.map((col) => oneLine(col.label)).join(', ')}`));
    const width = Math.max(9, ...m.columns.map((col) => oneLine(col.label).length));
    lines.push(`  ${m.columns.map((col) => oneLine(col.label).padEnd(width)).join(' ')}  claim`);
    for (const row of m.rows) {
      const cells = row.cells.map((o) => (o ? paint[o.word](o.word.padEnd(width)) : c.dim('—'.padEnd(width))));
      lines.push(`  ${cells.join(' ')}  ${oneLine(`${row.suite}: ${row.says} · ${row.row}`)}`);
    }
    for (const f of m.flips) {
      lines.push('');
      lines.push(`${c.bold('flipped')} ${oneLine(`${f.suite}: ${claimFlipText(f)}`)}. Where it changed:`);
      for (const command of f.bisect) lines.push(`  ${oneLine(command)}`);
    }
    lines.push('');
  }
  lines.push(`${c.bold('claims')}: ${countsLine(view)}`);
  lines.push(c.dim(`${view.adjustment}; ${view.method}`));
  for (const r of view.runs) lines.push(c.dim(`  ${oneLine(runLine(r))}`));
  for (const n of view.notes) lines.push(c.yellow(`! ${oneLine(n)}`));
  return `${lines.join('\n')}\n`;
}
