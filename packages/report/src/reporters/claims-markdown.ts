/** Claims as markdown for a pull request: a table per suite, the --across matrix, how they were measured. */
import type { ClaimsView } from '../views/claims-types.ts';
import { markdownCell as cell, markdownCode as code, markdownFence, shellQuote } from '../text.ts';
import { bySuite, claimedText, claimFigure, claimFlipText, claimSides, countsLine, matrixRowText, runLine } from '../cells/claims.ts';

const WORD_MARK = { held: '✅ held', broken: '❌ broken', undecided: '❔ undecided' } as const;

export function renderClaimsMarkdown(view: ClaimsView): string {
  const lines: string[] = [`### rtbench claims: ${countsLine(view)}`, ''];
  for (const [suite, outcomes] of bySuite(view.outcomes)) {
    lines.push(`#### ${cell(suite)}`, '', '| claim | checked on | claimed | measured | units | word |', '|---|---|---|--:|--:|---|');
    for (const o of outcomes) {
      const note = o.note ? ` (${cell(o.note)})` : '';
      lines.push(`| ${cell(o.says)} | ${cell(claimSides(o))} | ${cell(claimedText(o))} | ${cell(claimFigure(o))} | ${o.units} | ${WORD_MARK[o.word]}${note} |`);
    }
    lines.push('');
  }
  if (view.matrix) {
    const m = view.matrix;
    lines.push(`#### claims × releases`, '', `| claim | ${m.columns.map((c) => cell(c.label)).join(' | ')} |`, `|---|${m.columns.map(() => '---').join('|')}|`);
    for (const row of m.rows) lines.push(`| ${cell(`${row.suite}: ${row.says} · ${matrixRowText(row.sides)}`)} | ${row.cells.map((o) => (o ? `${WORD_MARK[o.word]} ${cell(claimFigure(o))}` : '—')).join(' | ')} |`);
    lines.push('');
    for (const f of m.flips) {
      lines.push(`**Flipped**: ${cell(claimFlipText(f))}. Where:`, '', ...markdownFence(f.bisect, 'sh'), '');
    }
  }
  lines.push(`${cell(view.adjustment)}; ${cell(view.method)}.`, '');
  for (const r of view.runs) lines.push(`- ${cell(runLine(r))}: ${code(`rtbench ${r.command.map(shellQuote).join(' ')}`)}`);
  for (const n of view.notes) lines.push(`- ${cell(n)}`);
  return `${lines.join('\n')}\n`;
}
