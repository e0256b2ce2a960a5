/** The page's header and run panel say how many rounds a run reached, not only the minimum it started from. */
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

  it('names the rounds an adaptive run reached beside its minimum', () => {
    const data = run(30, 6);
    expect(data.subtitle).toContain('6–30 rounds (adaptive; 30 reached)');
    expect(JSON.stringify(data.environment)).toContain('6–30 rounds (adaptive; 30 reached)');
  });

  it('says the rounds alone when the run stopped at its minimum', () => {
    expect(run(6, 6).subtitle).toMatch(/, 6 rounds, /);
  });
});
