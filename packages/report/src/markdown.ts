/** Markdown for pasting a run into a pull request or an issue. */
import type { RunRecord } from '@rtbench/core/schema';
import { benchRows, cellTexts, medianHeading } from './bench-table.ts';

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderBenchMarkdown(run: RunRecord): string {
  const lines: string[] = [];
  lines.push(`### rtbench: ${run.suite}`);
  lines.push('');
  const variants = run.variants.map((v) =>
    v.unavailable ? `\`${v.id}\` (did not run: ${escapeCell(v.unavailable)})` : `\`${v.id}\` ${v.version ?? ''} (${v.engine === 'jsc' ? 'JSC' : 'V8'} ${v.engineVersion ?? ''})`,
  );
  lines.push(`Runtimes: ${variants.join(', ')}. ${run.options.rounds} rounds (fresh processes) × ${run.options.timeMs} ms per case and runtime. ${run.host.cpuModel}, ${run.host.cores} cores, load ${run.host.loadavg.map((l) => l.toFixed(2)).join(' ')}.`);
  lines.push('');
  lines.push(`| case | runtime | ${medianHeading(run)} | p25–p75 | 95% CI | ops/s | relative |`);
  lines.push('|---|---|--:|--:|--:|--:|---|');
  let previous: string | undefined;
  const skewed: string[] = [];
  for (const row of benchRows(run)) {
    const t = cellTexts(row);
    const caseCell = row.caseId === previous ? '' : escapeCell(row.caseId);
    previous = row.caseId;
    if (!row.result.stats) lines.push(`| ${caseCell} | ${escapeCell(row.variantId)} | ${escapeCell(t.note)} | | | | |`);
    else lines.push(`| ${caseCell} | ${escapeCell(row.variantId)} | **${t.median}** | ${t.spread} | ±${t.ci.slice(1)} | ${t.ops} | ${t.relative} |`);
    if (t.skew) skewed.push(`${row.variantId} · ${row.caseId}: ${t.skew}`);
  }
  if (skewed.length) {
    lines.push('');
    for (const line of skewed) lines.push(`> ${escapeCell(line)}`);
  }
  for (const m of run.digestMismatches) {
    lines.push('');
    lines.push(`> ⚠️ **Different work** on \`${m.caseId}\`: ${Object.entries(m.digests).map(([v, h]) => `${v} \`${h}\``).join(', ')}`);
  }
  lines.push('');
  lines.push(`<sub>rtbench run ${run.id}, status ${run.status}. Median: the typical process's median; CI: bootstrap over fresh processes.</sub>`);
  return `${lines.join('\n')}\n`;
}
