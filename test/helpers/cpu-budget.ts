/**
 * The test suite's CPU budget: what each test file's processes cost in
 * CPU-seconds (user + system of the vitest worker that ran the file and of
 * every process below it), compared with the budget committed in
 * test/helpers/cpu-budget.json. CPU-seconds, not wall: a slow or busy machine
 * stretches a file's wall time but hardly its CPU, so the check holds across
 * machines of one kind. Pure: the records come from test/helpers/cpu-record.ts
 * (one per file, written by the worker) through test/helpers/cpu-reporter.ts.
 */
import { join } from 'node:path';

/** The record folder inside the run's temporary folder (test/helpers/temp-root.ts): the worker writes it, the reporter reads it. */
export const cpuRecordDir = (tmpRoot: string): string => join(tmpRoot, 'cpu-records');

/** A record's file in that folder, one per test file (or per process that is no test file's, such as the shared Chromium). */
export const cpuRecordFile = (tmpRoot: string, file: string): string => join(cpuRecordDir(tmpRoot), `${file.replaceAll('/', '__')}.json`);

/** One test file's cost in one run. */
export interface CpuRecord {
  /** The file, relative to the repository's root. */
  file: string;
  /** User + system CPU of the worker and every process below it while the file ran. */
  cpuS: number;
  /** Of which the processes the file started (the rest is the worker's own: imports, assertions). */
  childrenS: number;
  /** Processes of the file still alive when it ended (their CPU so far is counted). */
  leftRunning: number;
  /**
   * The budget line it is counted under with others, when files share one worker's module graph (the pure
   * project): which of them pays for importing a module depends on which ran first, so only their sum is stable.
   */
  group?: string;
}

/** The committed budget: CPU-seconds per file, measured on a whole run (the margin is the checker's). */
export interface CpuBudget {
  /** Per file: the CPU-seconds it took on the run the budget was taken from. */
  files: Record<string, number>;
  /** The sum over the files of that run. */
  totalS: number;
  /**
   * Lines whose CPU moves with the machine by design, each with why (runs that stop when a verdict is decided, a
   * case that spins until its time-out): they get the widest margin, still under 20 CPU-s. Kept when the budget is
   * taken again.
   */
  adaptive?: Record<string, string>;
}

/** A file the budget does not list may take this much. */
export const UNLISTED_FILE_S = 10;

/** The widest margin a line may have: work of 20 CPU-s added to any file still fails the check. */
export const MAX_MARGIN_S = 15;

/**
 * The margin a file may grow by before the check fails: a fifth of its
 * budget, at least 3 s (a small file's CPU jitters by a second or two with
 * the machine's caches and load) and at most MAX_MARGIN_S; an adaptive line
 * (CpuBudget.adaptive) MAX_MARGIN_S whatever its size.
 */
export const fileMargin = (budgetS: number, adaptive = false): number => (adaptive ? MAX_MARGIN_S : Math.min(MAX_MARGIN_S, Math.max(3, 0.2 * budgetS)));

/** The whole run's margin over the budget's total. */
export const totalMargin = (totalS: number): number => 0.1 * totalS;

export interface Overrun {
  /** The file (or group of files) that grew, or undefined for the total. */
  file?: string;
  /** For a group: its costliest file in this run, where work added shows. */
  costliest?: string;
  cpuS: number;
  budgetS: number;
  limitS: number;
}

export interface BudgetCheck {
  over: Overrun[];
  /** The run's sum over its files. */
  totalS: number;
  /** Whether the run ran every file the budget lists (only then is the total compared). */
  whole: boolean;
}

const s = (x: number): string => `${x.toFixed(1)} CPU-s`;

/**
 * Compares a run's records with the budget: every file that ran, and the total when the run was whole
 * (it ran every listed file that still exists: a line left by a removed file does not make every run partial).
 */
export function checkBudget(records: readonly CpuRecord[], budget: CpuBudget, exists: (file: string) => boolean = () => true): BudgetCheck {
  const over: Overrun[] = [];
  for (const [line, cpuS] of budgetLines(records)) {
    const budgetS = budget.files[line];
    const limitS = budgetS === undefined ? UNLISTED_FILE_S : budgetS + fileMargin(budgetS, budget.adaptive?.[line] !== undefined);
    if (cpuS <= limitS) continue;
    const members = records.filter((r) => r.group === line).sort((a, b) => b.cpuS - a.cpuS);
    over.push({ file: line, cpuS, budgetS: budgetS ?? 0, limitS, ...(members[0] ? { costliest: `${members[0].file} (${s(members[0].cpuS)})` } : {}) });
  }
  const totalS = records.reduce((sum, r) => sum + r.cpuS, 0);
  const ran = new Set(records.flatMap((r) => [r.file, ...(r.group ? [r.group] : [])]));
  const whole = Object.keys(budget.files).every((f) => ran.has(f) || (!f.startsWith('(') && !exists(f)));
  if (whole && totalS > budget.totalS + totalMargin(budget.totalS)) over.push({ cpuS: totalS, budgetS: budget.totalS, limitS: budget.totalS + totalMargin(budget.totalS) });
  return { over, totalS, whole };
}

/** The run's CPU per budget line: a file's own, or its group's sum. */
function budgetLines(records: readonly CpuRecord[]): Map<string, number> {
  const lines = new Map<string, number>();
  for (const r of records) lines.set(r.group ?? r.file, (lines.get(r.group ?? r.file) ?? 0) + r.cpuS);
  return lines;
}

/** One line per overrun, naming the file and what to do. */
export function overrunLines(check: BudgetCheck): string[] {
  return check.over.map((o) =>
    o.file === undefined
      ? `test CPU budget: the files took ${s(o.cpuS)} together, over the budget's ${s(o.budgetS)} + 10% (${s(o.limitS)}): find the files that grew (above) or take the budget again (docs/tests.md, "The CPU budget")`
      : o.budgetS === 0
        ? `test CPU budget: ${o.file} took ${s(o.cpuS)} and has no budget (a file not listed may take ${s(UNLISTED_FILE_S)}): make it cheaper, or give it a line in test/helpers/cpu-budget.json`
        : `test CPU budget: ${o.file} took ${s(o.cpuS)}, over its budget of ${s(o.budgetS)} + margin (${s(o.limitS)})${o.costliest ? `, the costliest ${o.costliest}` : ''}: make it cheaper (share a run, move checks to pure tests), or raise its line in test/helpers/cpu-budget.json and say why`,
  );
}

/**
 * The overruns a run that does not fail on them prints: the total's line and
 * the `max` files furthest over their lines, then how many more, so that the
 * run's last lines still reach what failed (a CI log keeps only its tail).
 */
export function shownOverruns(check: BudgetCheck, max = 8): string[] {
  const files = check.over.filter((o) => o.file !== undefined).sort((a, b) => b.cpuS / b.limitS - a.cpuS / a.limitS);
  const total = check.over.filter((o) => o.file === undefined);
  const shown = overrunLines({ ...check, over: [...files.slice(0, max), ...total] });
  const more = files.length - max;
  return more > 0 ? [...shown.slice(0, max), `test CPU budget: ${more} more file${more === 1 ? '' : 's'} over ${more === 1 ? 'its line' : 'their lines'} (\`npx tsx scripts/test-cpu.ts --check\` names each)`, ...shown.slice(max)] : shown;
}

/** The run's summary: the costliest files and the total. */
export function summaryLines(records: readonly CpuRecord[], check: BudgetCheck, top = 10): string[] {
  const sorted = [...records].sort((a, b) => b.cpuS - a.cpuS);
  const lines = [`test CPU: ${s(check.totalS)} over ${records.length} files${check.whole ? '' : ' (not a whole run: the total is not compared)'}; the costliest:`];
  for (const r of sorted.slice(0, top)) lines.push(`  ${r.cpuS.toFixed(1).padStart(7)}  ${r.file}${r.leftRunning ? ` (${r.leftRunning} of its processes still running at its end)` : ''}`);
  return lines;
}

/**
 * A budget from a whole run's records: each line's CPU (a file's, or a group's sum) rounded up to a tenth of a
 * second; the adaptive lines of the budget it replaces kept, for the files that still ran.
 */
export function budgetFrom(records: readonly CpuRecord[], adaptive: Record<string, string> = {}): CpuBudget {
  const files: Record<string, number> = {};
  for (const [line, cpuS] of [...budgetLines(records)].sort(([a], [b]) => a.localeCompare(b))) files[line] = Math.ceil(cpuS * 10) / 10;
  const kept = Object.fromEntries(Object.entries(adaptive).filter(([line]) => line in files));
  return { files, totalS: Math.ceil(Object.values(files).reduce((a, b) => a + b, 0)), ...(Object.keys(kept).length ? { adaptive: kept } : {}) };
}

/** The fields of /proc/<pid>/stat the budget reads, in clock ticks: the process's own and its reaped children's CPU. */
export interface ProcStat {
  /** The parent's pid. */
  ppid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

/** Parses /proc/<pid>/stat (the command's name may hold spaces and parentheses: the fields start after the last one). */
export function parseProcStat(text: string): ProcStat {
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): utime is field 14.
  const n = (field: number): number => Number(f[field - 3]);
  return { ppid: n(4), utime: n(14), stime: n(15), cutime: n(16), cstime: n(17) };
}

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every architecture Linux user space sees). */
export const TICKS_PER_S = 100;
