/** `rtbench suites` reads what each suite measures from its README's heading: every suite has one to read. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSuites, suiteSummary } from '../src/index.ts';

describe('a suite in one line', () => {
  it("is its README's heading after the name and its dash", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-summary-'));
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'index.ts'), '');
    writeFileSync(join(dir, 'x', 'README.md'), '# x — what x measures\n\nMore.\n');
    mkdirSync(join(dir, 'y'));
    writeFileSync(join(dir, 'y', 'index.ts'), '');
    const [x, y] = listSuites(dir);
    expect(suiteSummary(x!)).toBe('what x measures');
    expect(suiteSummary(y!)).toBeUndefined();
  });

  it('is there for every suite in bench/', () => {
    const suites = listSuites();
    expect(suites.length).toBeGreaterThan(5);
    expect(suites.filter((s) => !suiteSummary(s)).map((s) => s.name)).toEqual([]);
  });
});
