/**
 * The test files' CPU on the last run of the test command (kept by
 * test/helpers/cpu-reporter.ts in .rtbench-cache/test-cpu/last-run.json),
 * beside each file's budget (test/helpers/cpu-budget.json), costliest first.
 *
 *   npx tsx scripts/test-cpu.ts                  # the table
 *   npx tsx scripts/test-cpu.ts --check          # exit 1 naming each file over its line (the budget's check)
 *   npx tsx scripts/test-cpu.ts --write-budget   # the budget taken again from the last run (a whole one)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetFrom, checkBudget, overrunLines } from '../test/helpers/cpu-budget.ts';
import { BUDGET_FILE, LAST_RUN_FILE, readBudget, type LastRun } from '../test/helpers/cpu-reporter.ts';

const repoRoot = join(import.meta.dirname, '..');
// A reader that stopped reading (`| head`) is not an error of the table's.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

if (!existsSync(LAST_RUN_FILE)) {
  console.error(`no test run recorded yet (${LAST_RUN_FILE}): run the tests first (npx pnpm test, or npx vitest run <files>)`);
  process.exit(2);
}
const last = JSON.parse(readFileSync(LAST_RUN_FILE, 'utf8')) as LastRun;
const budget = readBudget();
const check = checkBudget(last.records, budget, (f) => existsSync(join(repoRoot, f)));

if (process.argv.includes('--write-budget')) {
  if (!check.whole) {
    console.error('the last run was not a whole one (it left out files the budget lists): take the budget from `npx pnpm test`');
    process.exit(2);
  }
  writeFileSync(BUDGET_FILE, `${JSON.stringify(budgetFrom(last.records, budget.adaptive), null, 1)}\n`);
  console.log(`wrote ${BUDGET_FILE}`);
  process.exit(0);
}

if (process.argv.includes('--check')) {
  const lines = overrunLines(check);
  console.log(lines.length ? lines.join('\n') : `every file within its line (${check.totalS.toFixed(1)} CPU-s over ${last.records.length} files${check.whole ? '' : ', not a whole run'})`);
  process.exit(lines.length ? 1 : 0);
}

const rows = [...last.records].sort((a, b) => b.cpuS - a.cpuS);
console.log(' CPU-s  budget  of which children  file');
for (const r of rows) {
  const b = budget.files[r.file];
  console.log(`${r.cpuS.toFixed(1).padStart(6)}  ${(b === undefined ? '—' : b.toFixed(1)).padStart(6)}  ${r.childrenS.toFixed(1).padStart(17)}  ${r.file}`);
}
console.log(`${check.totalS.toFixed(1).padStart(6)}  ${budget.totalS.toFixed(1).padStart(6)}  ${rows.reduce((s, r) => s + r.childrenS, 0).toFixed(1).padStart(17)}  total over ${rows.length} files${check.whole ? '' : ' (not a whole run)'}`);
console.log(`the vitest process itself: ${last.vitestS.toFixed(1)} CPU-s`);
for (const line of overrunLines(check)) console.log(line);
process.exitCode = check.over.length ? 1 : 0;
