/**
 * Long case names are shown capped by one rule (names.ts) in every reporter
 * drawn for people, and stay distinct; the data formats keep them whole.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { historyView, reporterFor, viewOfRun, type View } from '../src/index.ts';
import { pageData } from '../src/html/page-data.ts';
import { historyPageData } from '../src/html/history-data.ts';
import { SHOWN_NAME_MAX, shownName, shownNames } from '../src/names.ts';

const RUN = join(import.meta.dirname, '../../../results/20261121-124315Z-json-reviver.json');
const COMPARE_RUN = join(import.meta.dirname, '../../../results/20261121-130300Z-gc-pressure-compare.json');
const load = (path: string): RunRecord => parseRun(JSON.parse(readFileSync(path, 'utf8')), path);

/** Twenty times the shown cap: as long as a name needs to be cut, and cheap to write into every sample row of csv. */
const middle = 'x'.repeat(SHOWN_NAME_MAX * 20);
/** Two names that differ only far from both ends (the same once shortened), one long with its own end, and one short. */
const LONG_A = `parse / ${middle}A${middle} [size=10kb]`;
const LONG_B = `parse / ${middle}B${middle} [size=10kb]`;
const LONG_C = `parse / ${middle} reviver [size=500kb]`;

/** `run` with its first cases renamed to `names`. */
function renamed(run: RunRecord, names: readonly string[]): RunRecord {
  const to = new Map(run.cases.slice(0, names.length).map((c, i) => [c.id, names[i]!]));
  const id = (x: string): string => to.get(x) ?? x;
  return {
    ...run,
    cases: run.cases.map((c) => (to.has(c.id) ? { ...c, id: id(c.id), name: id(c.id), group: undefined, params: {} } : c)),
    results: run.results.map((r) => ({ ...r, caseId: id(r.caseId) })),
    digestMismatches: run.digestMismatches.map((m) => ({ ...m, caseId: id(m.caseId) })),
  };
}

const codePoints = (s: string): number => Array.from(s).length;

describe('shownName', () => {
  it('shows a name up to the limit whole, and a longer one as its start and end around an ellipsis', () => {
    const whole = 'n'.repeat(SHOWN_NAME_MAX);
    expect(shownName(whole)).toBe(whole);
    const shown = shownName(LONG_C);
    expect(codePoints(shown)).toBe(SHOWN_NAME_MAX);
    expect(shown.startsWith('parse / xxx')).toBe(true);
    expect(shown.endsWith('xxx reviver [size=500kb]')).toBe(true);
    expect(shown.split('…')).toHaveLength(2);
  });

  it('counts and cuts by characters, never inside a surrogate pair', () => {
    const emoji = '🙂'.repeat(200);
    const shown = shownName(emoji);
    expect(codePoints(shown)).toBe(SHOWN_NAME_MAX);
    expect(shown.replace(/🙂/g, '')).toBe('…');
    expect(shownName('🙂'.repeat(SHOWN_NAME_MAX))).toBe('🙂'.repeat(SHOWN_NAME_MAX));
  });
});

describe('shownNames', () => {
  it('keeps names distinct when shortening would merge them, by a hash of the whole name, the same every time', () => {
    const names = [LONG_A, LONG_B, LONG_C, 'short'];
    expect(shownName(LONG_A)).toBe(shownName(LONG_B));
    const shown = shownNames(names);
    expect(new Set(shown.values()).size).toBe(4);
    expect(shown.get('short')).toBe('short');
    expect(shown.get(LONG_C)).toBe(shownName(LONG_C));
    for (const n of [LONG_A, LONG_B]) {
      expect(shown.get(n)).toMatch(/^parse \/ x+…#[0-9a-f]{8}…x+ \[size=10kb\]$/);
      expect(codePoints(shown.get(n)!)).toBe(SHOWN_NAME_MAX);
    }
    // Stable across calls and orders: a shown name can be quoted from one report to the next.
    expect([...shownNames([...names].reverse())].sort()).toEqual([...shown].sort());
  });

  it('keeps a shortened name apart from a short name that reads the same', () => {
    const lookalike = shownName(LONG_C);
    const shown = shownNames([LONG_C, lookalike]);
    expect(shown.get(lookalike)).toBe(lookalike);
    expect(shown.get(LONG_C)).not.toBe(lookalike);
    expect(shown.get(LONG_C)).toContain('…#');
  });
});

describe('every reporter shows the same capped names; the data formats keep them whole', () => {
  const LONG = [LONG_A, LONG_B, LONG_C];
  const shown = shownNames(LONG);
  const bench = viewOfRun(renamed(load(RUN), LONG));
  const comparison = viewOfRun(renamed(load(COMPARE_RUN), LONG));
  const history = historyView([{ run: renamed(load(RUN), LONG), file: 'a.json' }, { run: renamed(load(RUN), LONG), file: 'b.json' }]);
  const render = (format: string, view: View): string => reporterFor(format)!.render(view, { color: false, columns: 100 });

  it.each([
    ['bench', bench],
    ['comparison', comparison],
    ['history', history],
  ] as const)('%s: terminal and markdown show each long name capped, never whole, and the terminal stays within 100 columns', (_kind, view) => {
    for (const format of ['terminal', 'markdown']) {
      const out = render(format, view);
      for (const name of LONG) {
        expect(out, format).toContain(shown.get(name));
        expect(out, format).not.toContain(name);
      }
      if (format === 'terminal') expect(Math.max(...out.split('\n').map(codePoints))).toBeLessThanOrEqual(100);
    }
  });

  it('the HTML page data labels each case with its shown name and caps the name, group and parameters it draws', () => {
    for (const view of [bench, comparison]) {
      const data = pageData(view as Parameters<typeof pageData>[0]);
      for (const name of LONG) {
        const c = data.cases.find((x) => x.id === name)!;
        expect(c.label).toBe(shown.get(name));
        expect(codePoints(c.name)).toBeLessThanOrEqual(SHOWN_NAME_MAX);
      }
    }
    const page = historyPageData(history as Parameters<typeof historyPageData>[0]);
    expect(page.cases.map((c) => c.title)).toEqual(expect.arrayContaining(LONG.map((n) => shown.get(n))));
  });

  it('json, csv and bmf keep the full names (they are keys)', () => {
    for (const format of ['json', 'csv', 'bmf']) {
      const out = render(format, bench);
      for (const name of LONG) expect(out, format).toContain(name);
    }
  });
});
