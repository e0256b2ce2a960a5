/** The self-check section (reporters/company.ts): table ÷ alone written as every ratio of a report, with its interval. */
import { describe, expect, it } from 'vitest';
import type { CompanyRow } from '@rtbench/verdicts';
import { markdownCompany, terminalCompany } from '../src/reporters/company.ts';
import { slowerWithoutRunUp, type CompanySection } from '../src/views/company.ts';

const row = (variantId: string, alone: CompanyRow['alone'], reading?: CompanyRow['reading']): CompanyRow => ({ caseId: 'a', variantId, tableNs: 150_000, aloneNs: 100_000, ...(alone ? { alone } : {}), ...(reading ? { reading } : {}), company: reading === 'company', apartFromLoop: false });

const section: CompanySection = {
  rows: [
    row('node', { ratio: 1.5, ci: [1.31, 1.72] }, 'company'),
    row('bun', { ratio: 1.02 }),
    row('deno', undefined),
    row('workerd', { ratio: 1.01, ci: [0.95, 1.06] }, 'within'),
    row('node@24', { ratio: 1.01, ci: [0.85, 1.19] }, 'undecided'),
  ],
  files: { alone: ['alone-node.json'], loop: 'loop.json' },
  design: ['node: 6 processes a case each half, its processes alone spread 9.0% (log sd); ±10% would want 11, held at 6 (the table\'s rounds)'],
};

describe('the self-check section', () => {
  it('writes table ÷ alone with its interval in brackets, the ratio alone where there is none, and says what the mark means', () => {
    const text = terminalCompany(section, { color: false, columns: 100 });
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('  node'))).toMatch(/1\.500 \[1\.310–1\.720\] +— +company$/);
    expect(lines.find((l) => l.startsWith('  bun'))).toMatch(/ 1\.020 +— *$/);
    expect(lines.find((l) => l.startsWith('  deno'))).toMatch(/ — +— *$/);
    expect(lines.find((l) => l.startsWith('  workerd'))).toMatch(/1\.010 \[0\.950–1\.060\] +— +within$/);
    // An interval across 1.1 is not said to be within: the check cannot tell.
    expect(lines.find((l) => l.startsWith('  node@24'))).toMatch(/1\.010 \[0\.850–1\.190\] +— +undecided$/);
    expect(text).toMatch(/^self-check: 1 of 5 cells depend on their company \(a on node\), 1 within ±10%, 1 undecided;/m);
    expect(text.replace(/\s+/g, ' ')).toContain("halves alone: node: 6 processes a case each half, its processes alone spread 9.0% (log sd); ±10% would want 11, held at 6 (the table's rounds)");
    expect(text.replace(/\s+/g, ' ')).toContain('company: that whole interval lies more than 10% from 1');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(markdownCompany(section)).toContain('| node | 150 µs | 100 µs | — | 1.500 [1.310–1.720] | — | company |');
  });

  it('names --run-up under the table where a cell reads slower than alone and the table asked no run-up time', () => {
    expect(slowerWithoutRunUp(section.rows, {})).toBe(true);
    expect(slowerWithoutRunUp(section.rows, { measurer: 'lockstep', measurerFields: { runUpMs: 150 } })).toBe(false);
    // Another measurer's field of that name is not lockstep's run-up.
    expect(slowerWithoutRunUp(section.rows, { measurer: 'processes', measurerFields: { runUpMs: 150 } })).toBe(true);
    // Faster than alone: the wait did not slow it, so the run-up is not what to try.
    const faster = section.rows.map((r) => (r.company ? { ...r, alone: { ratio: 0.7, ci: [0.6, 0.8] as [number, number] } } : r));
    expect(slowerWithoutRunUp(faster, {})).toBe(false);
    expect(slowerWithoutRunUp(section.rows.filter((r) => !r.company), {})).toBe(false);
    const hinted = terminalCompany({ ...section, slowerWithoutRunUp: true }, { color: false, columns: 100 }).replace(/\s+/g, ' ');
    expect(hinted).toContain('try the table with --run-up 150ms');
    expect(terminalCompany(section, { color: false, columns: 100 })).not.toContain('--run-up');
    expect(markdownCompany({ ...section, slowerWithoutRunUp: true })).toContain('try the table with --run-up 150ms');
  });
});
