/**
 * Terminal rendering with cli-table3 (column widths, wrapping and unicode
 * borders are its job, not ours) and picocolors (honours NO_COLOR and
 * non-TTY output).
 */
import Table from 'cli-table3';
import pc from 'picocolors';
import type { RunRecord } from '@rtbench/core/schema';
import { MIN_ROUNDS_FOR_BOOTSTRAP } from '@rtbench/stats';
import { benchRows, cellTexts } from './bench-table.ts';

export function renderBenchTable(run: RunRecord): string {
  const table = new Table({
    head: ['case', 'runtime', 'median/op', 'p25–p75', '95% CI', 'ops/s', 'relative'].map((h) => pc.bold(h)),
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
    style: { head: [], border: [] },
    // No rule between rows: a case's runtimes sit together under its name.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: true,
  });
  let previousCase: string | undefined;
  for (const row of benchRows(run)) {
    const t = cellTexts(row);
    const caseCell = row.caseId !== previousCase ? row.caseId : '';
    previousCase = row.caseId;
    if (!row.result.stats) {
      const color = row.result.status === 'unsupported' ? pc.yellow : pc.red;
      table.push([caseCell, row.variantId, { colSpan: 5, content: color(t.note) }]);
      continue;
    }
    const relative = row.digestMismatch ? pc.red(t.relative) : t.relative === 'fastest' ? pc.green(t.relative) : t.relative;
    table.push([caseCell, row.variantId, pc.bold(t.median), t.spread, t.ci, t.ops, relative]);
    if (t.note) table.push(['', '', { colSpan: 5, content: pc.red(t.note) }]);
    if (t.skew) table.push(['', '', { colSpan: 5, content: pc.yellow(t.skew) }]);
  }
  return table.toString();
}

/** Cases with exactly one finished process among all variants: no second digest to compare with. */
function uncheckedCases(run: RunRecord): string[] {
  return run.cases.filter((c) => run.results.reduce((n, r) => n + (r.caseId === c.id ? r.rounds.length : 0), 0) === 1).map((c) => c.id);
}

/** The lines under the table: what went wrong, what it means. */
export function renderRunNotes(run: RunRecord): string {
  const lines: string[] = [];
  for (const m of run.digestMismatches) {
    const parts = Object.entries(m.digests).map(([variant, hash]) => `${variant} ${hash}`);
    lines.push(pc.red(`✗ different work on "${m.caseId}": ${parts.join(', ')} — results are not comparable`));
  }
  const unavailable = run.variants.filter((v) => v.unavailable);
  for (const v of unavailable) lines.push(pc.red(`✗ ${v.id} did not run: ${v.unavailable}`));
  const failures = run.results.filter((r) => r.failures.some((f) => f.kind !== 'unsupported' && f.kind !== 'runtime-unavailable'));
  for (const r of failures) {
    for (const f of r.failures) {
      if (f.kind === 'unsupported' || f.kind === 'runtime-unavailable') continue;
      lines.push(pc.red(`✗ ${r.variantId} · ${r.caseId}: ${f.kind}${f.phase ? ` in ${f.phase}` : ''}: ${f.message}`));
      const tail = (f.stderr ?? '').trim().split('\n').slice(-4).join('\n    ');
      if (tail) lines.push(pc.dim(`    ${tail}`));
    }
  }
  const unchecked = uncheckedCases(run);
  if (unchecked.length && unchecked.length === run.cases.length) {
    lines.push(pc.yellow('! the work was not cross-checked: each case has one digest (one round on one runtime), so there was nothing to compare it with; run ≥ 2 rounds or runtimes'));
  } else if (unchecked.length) {
    lines.push(pc.yellow(`! the work was not cross-checked on ${unchecked.length} case${unchecked.length === 1 ? '' : 's'} with a single digest: ${unchecked.slice(0, 5).join(', ')}${unchecked.length > 5 ? ', …' : ''}`));
  }
  const rounds = run.options.rounds;
  lines.push(
    pc.dim(
      (rounds >= MIN_ROUNDS_FOR_BOOTSTRAP
        ? `median: the typical process's median (${rounds} fresh processes per case and runtime); p25–p75: spread of all samples; 95% CI: bootstrap over processes. `
        : `median of all samples from ${rounds} process${rounds === 1 ? '' : 'es'}; p25–p75: their spread; 95% CI: order statistics, blind to process-to-process variation (use ≥ ${MIN_ROUNDS_FOR_BOOTSTRAP} rounds). `) +
        `"≈" = CIs overlap the fastest: no difference detected (use --compare for a verdict).`,
    ),
  );
  return lines.join('\n');
}
