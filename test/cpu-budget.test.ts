/**
 * The test suite's CPU budget (test/helpers/cpu-budget.ts) on planted
 * records: a file that grew by 20 CPU-s fails the check by its name, whatever
 * its budget; a file without a line may take a little; the total is compared
 * on whole runs only; /proc's stat line is read past a command name with
 * spaces and parentheses. And the committed budget is one the checker reads.
 * (Checked for real too: a file whose test ran a child busy for 20 CPU-s,
 * run with `RTBENCH_CPU_BUDGET=strict npx vitest run` on it, failed the run
 * with the budget's line naming it; docs/tests.md, "The CPU budget".)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedLines } from './helpers/cpu-reporter.ts';
import { budgetFrom, checkBudget, fileMargin, MAX_MARGIN_S, overrunLines, parseProcStat, shownOverruns, summaryLines, UNLISTED_FILE_S, type CpuBudget, type CpuRecord } from './helpers/cpu-budget.ts';

const rec = (file: string, cpuS: number): CpuRecord => ({ file, cpuS, childrenS: cpuS / 2, leftRunning: 0 });

const BUDGET: CpuBudget = {
  files: { 'test/small.test.ts': 1, 'test/mid.test.ts': 30, 'test/big.test.ts': 120, 'test/rest.test.ts': 400 },
  totalS: 551,
};
const ASBUDGETED = Object.entries(BUDGET.files).map(([file, cpuS]) => rec(file, cpuS));

describe('the CPU budget check', () => {
  it('passes a run that took what the budget says, and one a little over it', () => {
    expect(checkBudget(ASBUDGETED, BUDGET).over).toEqual([]);
    const jitter = [rec('test/small.test.ts', 3.5), rec('test/mid.test.ts', 35), rec('test/big.test.ts', 133), rec('test/rest.test.ts', 410)];
    expect(checkBudget(jitter, BUDGET).over).toEqual([]);
  });

  it('fails a planted 20 CPU-second test in any listed file, and names the file', () => {
    for (const file of Object.keys(BUDGET.files)) {
      const planted = ASBUDGETED.map((r) => (r.file === file ? rec(file, r.cpuS + 20) : r));
      const check = checkBudget(planted, BUDGET);
      expect(check.over.map((o) => o.file)).toEqual([file]);
      expect(overrunLines(check)).toEqual([expect.stringMatching(new RegExp(`^test CPU budget: ${file.replaceAll('.', '\\.')} took [\\d.]+ CPU-s, over its budget of ${BUDGET.files[file]!.toFixed(1)} CPU-s`))]);
    }
  });

  it('fails a new file of 20 CPU-s that has no line, and says where to give it one', () => {
    const check = checkBudget([...ASBUDGETED, rec('test/planted.test.ts', 20)], BUDGET);
    expect(check.over.map((o) => o.file)).toEqual(['test/planted.test.ts']);
    expect(overrunLines(check)[0]).toMatch(/test\/planted\.test\.ts took 20\.0 CPU-s and has no budget .* test\/helpers\/cpu-budget\.json/);
    expect(checkBudget([...ASBUDGETED, rec('test/new.test.ts', UNLISTED_FILE_S - 1)], BUDGET).over).toEqual([]);
  });

  it('the margin is at least 3 CPU-s and at most 15 CPU-s, so 20 CPU-s more always fails', () => {
    expect(fileMargin(0.5)).toBe(3);
    expect(fileMargin(40)).toBe(8);
    expect(fileMargin(500)).toBe(15);
  });

  it('gives an adaptive line the widest margin, and still fails 20 CPU-s more in it', () => {
    const budget: CpuBudget = { ...BUDGET, adaptive: { 'test/mid.test.ts': 'rounds until decided' } };
    const grown = ASBUDGETED.map((r) => (r.file === 'test/mid.test.ts' ? rec(r.file, 30 + MAX_MARGIN_S - 0.1) : r));
    expect(checkBudget(grown, BUDGET).over.map((o) => o.file)).toEqual(['test/mid.test.ts']);
    expect(checkBudget(grown, budget).over).toEqual([]);
    const planted = ASBUDGETED.map((r) => (r.file === 'test/mid.test.ts' ? rec(r.file, 50) : r));
    expect(overrunLines(checkBudget(planted, budget))).toEqual([expect.stringMatching(/^test CPU budget: test\/mid\.test\.ts took 50\.0 CPU-s, over its budget of 30\.0 CPU-s \+ margin \(45\.0 CPU-s\)/)]);
    // Taken again, the budget keeps the adaptive lines of the files that still ran.
    expect(budgetFrom(ASBUDGETED, { ...budget.adaptive, 'test/gone.test.ts': 'removed' }).adaptive).toEqual({ 'test/mid.test.ts': 'rounds until decided' });
  });

  it('compares the total on a whole run only', () => {
    // Twenty files of 5 CPU-s, each a little over, none past its own margin: the total is.
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`test/f${i}.test.ts`, 5]));
    const budget: CpuBudget = { files, totalS: 100 };
    const allOver = Object.keys(files).map((f) => rec(f, 5 + fileMargin(5) - 0.1));
    const whole = checkBudget(allOver, budget);
    expect(whole.whole).toBe(true);
    expect(whole.over.map((o) => [o.file, o.budgetS])).toEqual([[undefined, 100]]);
    expect(overrunLines(whole)[0]).toMatch(/^test CPU budget: the files took 158\.0 CPU-s together, over the budget's 100\.0 CPU-s/);
    const part = checkBudget(allOver.slice(1), budget);
    expect(part.whole).toBe(false);
    expect(part.over).toEqual([]);
    expect(summaryLines(allOver.slice(1), part)[0]).toMatch(/not a whole run/);
    // A listed file that no longer exists does not make the run partial.
    expect(checkBudget(allOver.slice(1), budget, (f) => f !== 'test/f0.test.ts').over.map((o) => o.file)).toEqual([undefined]);
  });

  it('budgets files that share a module graph by their sum, and names the costliest when it grew', () => {
    const group = '(the pure project\'s files, one module graph a worker)';
    const shared = (file: string, cpuS: number): CpuRecord => ({ ...rec(file, cpuS), childrenS: 0, group });
    const budget: CpuBudget = { files: { [group]: 10, 'test/e2e.test.ts': 5 }, totalS: 15 };
    // Which file paid for the imports moved: the sum held.
    expect(checkBudget([shared('a.test.ts', 8), shared('b.test.ts', 2), rec('test/e2e.test.ts', 5)], budget).over).toEqual([]);
    expect(checkBudget([shared('a.test.ts', 1), shared('b.test.ts', 9), rec('test/e2e.test.ts', 5)], budget).over).toEqual([]);
    const planted = checkBudget([shared('a.test.ts', 1), shared('b.test.ts', 29), rec('test/e2e.test.ts', 5)], budget);
    expect(planted.over.map((o) => o.file)).toEqual([group, undefined]);
    expect(overrunLines(planted)[0]).toContain('the costliest b.test.ts (29.0 CPU-s)');
    // The group ran when one of its files did; a run without any is not whole.
    expect(checkBudget([rec('test/e2e.test.ts', 5)], budget).whole).toBe(false);
    expect(budgetFrom([shared('a.test.ts', 8), shared('b.test.ts', 2.05), rec('test/e2e.test.ts', 5)]).files).toEqual({ [group]: 10.1, 'test/e2e.test.ts': 5 });
  });

  it('a budget taken from a run passes that run', () => {
    const run = [rec('test/a.test.ts', 12.34), rec('test/b.test.ts', 0.01)];
    const budget = budgetFrom(run);
    expect(budget.files).toEqual({ 'test/a.test.ts': 12.4, 'test/b.test.ts': 0.1 });
    expect(checkBudget(run, budget).over).toEqual([]);
  });

  it('reads /proc/<pid>/stat past a command name with spaces and parentheses', () => {
    const line = '4242 (node (vitest 1)) S 4200 4242 4200 0 -1 4194560 9311 0 0 0 1234 567 89 10 20 0 11 0 5000 1000 2000';
    expect(parseProcStat(line)).toEqual({ ppid: 4200, utime: 1234, stime: 567, cutime: 89, cstime: 10 });
  });

  it('the committed budget is one the checker reads, with a total that is its files\' sum', () => {
    const root = join(import.meta.dirname, '..');
    const budget = JSON.parse(readFileSync(join(root, 'test/helpers/cpu-budget.json'), 'utf8')) as CpuBudget;
    const sum = Object.values(budget.files).reduce((a, b) => a + b, 0);
    expect(budget.totalS).toBeGreaterThanOrEqual(sum);
    expect(budget.totalS).toBeLessThan(sum + 1);
    expect(Object.keys(budget.files).length).toBeGreaterThan(0);
    // Every adaptive line is a line of the budget, with its reason.
    for (const [line, why] of Object.entries(budget.adaptive ?? {})) {
      expect(budget.files[line], line).toBeDefined();
      expect(why.length, line).toBeGreaterThan(10);
    }
  });

  it('a run that only says its overruns names the furthest over and counts the rest, the total kept', () => {
    const files = Array.from({ length: 12 }, (_, i) => `test/f${i}.test.ts`);
    const budget: CpuBudget = { files: Object.fromEntries(files.map((f) => [f, 10])), totalS: 120 };
    // f11 is the furthest over (10 + 2 s margin → 60 s), f0 the least.
    const check = checkBudget(files.map((f, i) => rec(f, 20 + 4 * i)), budget);
    expect(check.over).toHaveLength(13);
    const lines = shownOverruns(check, 8);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toContain('test/f11.test.ts took 64.0 CPU-s');
    expect(lines.slice(0, 8).some((l) => l.includes('test/f0.test.ts'))).toBe(false);
    expect(lines[8]).toMatch(/^test CPU budget: 4 more files over their lines .*test-cpu\.ts --check/);
    expect(lines[9]).toMatch(/^test CPU budget: the files took /);
    expect(shownOverruns(checkBudget(files.slice(0, 2).map((f) => rec(f, 30)), budget), 8)).toHaveLength(2);
  });
});

describe('the run\'s last lines', () => {
  const test = (fullName: string, message: string) => ({ fullName, result: () => ({ errors: [{ message: `${message}\nat line 2` }] }) });
  const module = (id: string, state: string, failed: ReturnType<typeof test>[], errors: { message: string }[] = []) => ({
    relativeModuleId: id,
    state: () => state,
    errors: () => errors,
    children: { allTests: () => failed.values() },
  });

  it('name each failed test with its error\'s first line, and a file that failed outside its tests', () => {
    const modules = [
      module('test/ok.test.ts', 'passed', []),
      module('test/a.test.ts', 'failed', [test('group > one', 'expected 1 to be 2'), test('two', 'timed out')]),
      module('test/b.test.ts', 'failed', [], [{ message: 'Cannot find module x' }]),
    ];
    expect(failedLines(modules as unknown as Parameters<typeof failedLines>[0])).toEqual([
      'failed (3):',
      '  test/a.test.ts > group > one: expected 1 to be 2',
      '  test/a.test.ts > two: timed out',
      '  test/b.test.ts: Cannot find module x',
    ]);
    expect(failedLines([module('test/ok.test.ts', 'passed', [])] as unknown as Parameters<typeof failedLines>[0])).toEqual([]);
  });
});
