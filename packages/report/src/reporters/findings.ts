/**
 * docs/findings.md: a claims run's folder as the project's findings page
 * (`rtbench report results/claims-<time> --format findings -o docs/findings.md`).
 * Any other view has no claims to state: the page says so.
 */
import { dirname } from 'node:path';
import { renderFindings } from './claims-findings.ts';
import type { Reporter } from './reporter.ts';

export const findingsReporter: Reporter = {
  format: 'findings',
  description: "a claims run as docs/findings.md: what the suites claim and what the run found, with when, where and how",
  extension: 'md',
  render: (view) => {
    if (view.kind === 'history') return `# Findings\n\nA history of ${view.runs.length} runs states no claims: \`rtbench claims\` makes the runs a findings page is written from.\n`;
    if (view.kind !== 'claims') {
      const arms = (view.kind === 'bench' ? view.variants : view.arms).map((a) => `\`${a.id}\` (${a.versionText})`).join(', ');
      return `# Findings\n\n${view.suite} on ${arms} checked no claims: \`rtbench claims\` makes the runs a findings page is written from.\n`;
    }
    const file = view.runs[0]?.file;
    return `${renderFindings(view, file ? dirname(file) : '.')}\n`;
  },
};
