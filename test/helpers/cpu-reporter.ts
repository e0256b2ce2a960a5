/**
 * vitest reporter of the whole suite: at the run's end, reads each test
 * file's CPU record (test/helpers/cpu-record.ts), prints the costliest files
 * and the total, keeps the records in .rtbench-cache/test-cpu/last-run.json
 * (scripts/test-cpu.ts reads them), and names each file that took more CPU
 * than test/helpers/cpu-budget.json allows (test/helpers/cpu-budget.ts):
 * every run says so, and `scripts/test-cpu.ts --check` (or a run with
 * RTBENCH_CPU_BUDGET=strict) fails on it. The vitest process's own CPU
 * (collecting and transforming the files) is printed beside it, not
 * budgeted; the set-up's installs depend on what the machine already had.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { checkBudget, cpuRecordDir, cpuRecordFile, overrunLines, parseProcStat, shownOverruns, summaryLines, TICKS_PER_S, type CpuBudget, type CpuRecord } from './cpu-budget.ts';
import { poolRoot } from './pool-root.ts';
import { SHARED_CHROMIUM_RECORD, stopSharedChromium } from './shared-chromium.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
export const BUDGET_FILE = join(repoRoot, 'test/helpers/cpu-budget.json');
export const LAST_RUN_FILE = join(repoRoot, '.rtbench-cache/test-cpu/last-run.json');

export interface LastRun {
  records: CpuRecord[];
  /** The vitest process's own CPU: collecting and transforming the files, the reporters. */
  vitestS: number;
}

export const readBudget = (): CpuBudget => JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as CpuBudget;

function readRecords(dir: string): CpuRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as CpuRecord);
}

function writeSharedRecord(tmpRoot: string, stat: string): void {
  const st = parseProcStat(stat);
  const record: CpuRecord = { file: SHARED_CHROMIUM_RECORD, cpuS: (st.utime + st.stime + st.cutime + st.cstime) / TICKS_PER_S, childrenS: (st.cutime + st.cstime) / TICKS_PER_S, leftRunning: 0 };
  mkdirSync(cpuRecordDir(tmpRoot), { recursive: true });
  writeFileSync(cpuRecordFile(tmpRoot, record.file), JSON.stringify(record));
}

/** Each failed test (or file that failed outside its tests) in one line with its first error's first line; none when all passed. */
export function failedLines(testModules: ReadonlyArray<Pick<TestModule, 'state' | 'relativeModuleId' | 'errors'> & { children: Pick<TestModule['children'], 'allTests'> }>): string[] {
  const first = (errors: readonly { message?: string }[]): string => (errors[0]?.message ?? '').split('\n')[0]!.slice(0, 200);
  const lines: string[] = [];
  for (const m of testModules) {
    if (m.state() !== 'failed') continue;
    const tests = [...m.children.allTests('failed')];
    if (!tests.length) lines.push(`  ${m.relativeModuleId}: ${first(m.errors()) || 'failed outside its tests'}`);
    for (const t of tests) lines.push(`  ${m.relativeModuleId} > ${t.fullName}: ${first(t.result().errors ?? [])}`);
  }
  return lines.length ? [`failed (${lines.length}):`, ...lines] : [];
}

export class CpuBudgetReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const tmpRoot = process.env.RTBENCH_TEST_TMP;
    if (!tmpRoot || process.platform !== 'linux') return;
    // The browser files' shared Chromium is no file's process: stopped here, its CPU is a line of its own.
    const chromium = await stopSharedChromium(poolRoot());
    if (chromium !== undefined) writeSharedRecord(tmpRoot, chromium);
    // Files of a project whose workers run several files on one module graph are budgeted together.
    const shared = new Map(testModules.filter((m) => m.project.config.isolate === false).map((m) => [relative(repoRoot, m.moduleId), `(the ${m.project.name} project's files, one module graph a worker)`]));
    const records = readRecords(cpuRecordDir(tmpRoot)).map((r) => (shared.has(r.file) ? { ...r, group: shared.get(r.file) } : r));
    if (!records.length) return;
    // The vitest process's own CPU: its children's (cutime) would count every worker again.
    const usage = process.resourceUsage();
    const vitestS = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    const last: LastRun = { records, vitestS };
    mkdirSync(join(LAST_RUN_FILE, '..'), { recursive: true });
    writeFileSync(LAST_RUN_FILE, `${JSON.stringify(last, null, 1)}\n`);
    const check = checkBudget(records, readBudget(), (f) => existsSync(join(repoRoot, f)));
    // Every run says what grew. The tests' outcome is their behaviour: a file whose runs stop adaptively (a claim,
    // a release step) takes more CPU on a slow machine, so only the check fails on CPU (scripts/test-cpu.ts --check,
    // or RTBENCH_CPU_BUDGET=strict).
    const fails = check.over.length > 0 && process.env.RTBENCH_CPU_BUDGET === 'strict';
    const out = [...summaryLines(records, check), `  (the vitest process itself: ${vitestS.toFixed(1)} CPU-s, not budgeted)`, ...(fails ? overrunLines(check) : shownOverruns(check))];
    if (check.over.length && !fails) out.push('  (said, not failed: `npx tsx scripts/test-cpu.ts --check` fails on it, as does RTBENCH_CPU_BUDGET=strict)');
    // The budget's lines come after vitest's own summary: what failed is said again last, where a log's tail shows it.
    out.push(...failedLines(testModules));
    process.stdout.write(`\n${out.join('\n')}\n`);
    if (fails) process.exitCode = 1;
  }
}
