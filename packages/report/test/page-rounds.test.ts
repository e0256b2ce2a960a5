/** The page's header and run panel say the rounds the cases had, not the minimum the options set. */
import { describe, expect, it } from 'vitest';
import { pageData } from '../src/html/page-data.ts';
import { viewOfRun } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

describe('the rounds on the page', () => {
  const run = (reached: number, minimum: number) => {
    const r = syntheticRun({ cases: [{ id: 'a', ns: 1000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.1 }], rounds: reached });
    r.options.rounds = minimum;
    return pageData(viewOfRun(r));
  };

  it('names the rounds the cases had, not the options\' minimum', () => {
    const data = run(30, 6);
    expect(data.subtitle).toMatch(/, 30 rounds, /);
    expect(JSON.stringify(data.environment)).toContain('"30 rounds"');
  });

  it('a merged run: the span of the rounds its cases had', () => {
    const r = syntheticRun({ cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 2000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.1 }], rounds: 19 });
    r.options.rounds = 6;
    for (const result of r.results) if (result.caseId === 'a') result.rounds = result.rounds.slice(0, 6);
    const data = pageData(viewOfRun(r));
    expect(data.subtitle).toMatch(/, 6–19 rounds a case, /);
    expect(data.subtitle).not.toMatch(/, 6 rounds/);
  });

  it('says the rounds alone when the run stopped at its minimum', () => {
    expect(run(6, 6).subtitle).toMatch(/, 6 rounds, /);
  });
});
