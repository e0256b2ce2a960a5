/** Claims for a terminal: per suite, each claim's sentence and its checks, word first; the --across matrix and its flips. Names and sentences keep to their lines (oneLine). */
import { counted, oneLine } from '../text.ts';
import pc from 'picocolors';
import type { ClaimWord } from '@rtbench/core/claims-schema';
import type { ClaimsView } from '../views/claims-types.ts';
import { bySentence, bySuite, claimedText, claimFigure, claimFlipText, claimSides, countsLine, matrixRowText, runLine } from '../cells/claims.ts';
import { fitCommand, fitLine, wrapWords } from './grid.ts';
import { displayWidth, padToWidth } from '../width.ts';
import type { ReporterOptions } from './reporter.ts';

export function renderClaimsTerminal(view: ClaimsView, options: ReporterOptions): string {
  const c = pc.createColors(options.color ?? true);
  const columns = options.columns ?? 100;
  const paint: Record<ClaimWord, (s: string) => string> = { held: c.green, broken: c.red, undecided: c.yellow };
  const lines: string[] = [];
  for (const [suite, outcomes] of bySuite(view.outcomes)) {
    const counts = { held: 0, broken: 0, undecided: 0 };
    for (const o of outcomes) counts[o.word]++;
    lines.push(...fitLine(`${c.bold(oneLine(suite))}: ${counted(outcomes.length, 'check')}, ${countsLine({ counts })}`, columns));
    for (const [says, checks] of bySentence(outcomes)) {
      lines.push(...wrapWords(oneLine(says), columns - 2).map((l) => `  ${l}`));
      lines.push(...fitLine(`    claimed: ${oneLine(claimedText(checks[0]!))}`, columns, c.dim));
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
    lines.push(...fitLine(`claims × ${m.columns.map((col) => oneLine(col.label)).join(', ')}`, columns, c.bold));
    const width = Math.max(9, ...m.columns.map((col) => displayWidth(oneLine(col.label))));
    lines.push(`  ${m.columns.map((col) => padToWidth(oneLine(col.label), width)).join(' ')}  claim`);
    for (const row of m.rows) {
      const cells = row.cells.map((o) => (o ? paint[o.word](o.word.padEnd(width)) : c.dim('—'.padEnd(width))));
      // The claim wrapped in its column, under the words of its row.
      const lead = 2 + m.columns.length * (width + 1) + 1;
      wrapWords(oneLine(`${row.suite}: ${row.says} · ${matrixRowText(row.sides)}`), Math.max(30, columns - lead)).forEach((line, i) => lines.push(i === 0 ? `  ${cells.join(' ')}  ${line}` : `${' '.repeat(lead)}${line}`));
    }
    for (const f of m.flips) {
      lines.push('');
      lines.push(...fitLine(`${c.bold('flipped')} ${oneLine(`${f.suite}: ${claimFlipText(f)}`)}. Where it changed:`, columns));
      for (const command of f.bisect) lines.push(...fitCommand(oneLine(command), columns, '  '));
    }
    lines.push('');
  }
  lines.push(...fitLine(`${c.bold('claims')}: ${countsLine(view)}`, columns));
  lines.push(...fitLine(`${view.adjustment}; ${view.method}`, columns, c.dim));
  for (const r of view.runs) lines.push(...fitLine(`  ${oneLine(runLine(r))}`, columns, c.dim));
  for (const n of view.notes) lines.push(...fitLine(`! ${oneLine(n)}`, columns, c.yellow));
  return `${lines.join('\n')}\n`;
}
