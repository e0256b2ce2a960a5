/** The self-check section (reporters/company.ts): table ÷ alone written as every ratio of a report, with its interval. */
import { describe, expect, it } from 'vitest';
import type { CompanyRow } from '@rtbench/verdicts';
import { markdownCompany, terminalCompany } from '../src/reporters/company.ts';
import type { CompanySection } from '../src/views/company.ts';

const row = (variantId: string, alone: CompanyRow['alone'], company: boolean): CompanyRow => ({ caseId: 'a', variantId, tableNs: 150_000, aloneNs: 100_000, ...(alone ? { alone } : {}), company, apartFromLoop: false });

const section: CompanySection = {
  rows: [row('node', { ratio: 1.5, ci: [1.31, 1.72] }, true), row('bun', { ratio: 1.02 }, false), row('deno', undefined, false)],
  files: { alone: ['alone-node.json'], loop: 'loop.json' },
};

describe('the self-check section', () => {
  it('writes table ÷ alone with its interval in brackets, the ratio alone where there is none, and says what the mark means', () => {
    const text = terminalCompany(section, { color: false, columns: 100 });
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('  node'))).toMatch(/1\.500 \[1\.310–1\.720\] +— +company$/);
    expect(lines.find((l) => l.startsWith('  bun'))).toMatch(/ 1\.020 +— *$/);
    expect(lines.find((l) => l.startsWith('  deno'))).toMatch(/ — +— *$/);
    expect(text).toMatch(/^self-check: 1 of 3 cells depend on their company \(a on node\)/m);
    expect(text.replace(/\s+/g, ' ')).toContain('company: that whole interval lies more than 10% from 1');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(markdownCompany(section)).toContain('| node | 150 µs | 100 µs | — | 1.500 [1.310–1.720] | — | company |');
  });
});
