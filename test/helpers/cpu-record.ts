/**
 * vitest set-up file of the whole suite: records what each test file cost in
 * CPU (test/helpers/cpu-budget.ts). The vitest worker that runs the file is a
 * process of its own; the file's cost is the worker's user + system CPU and
 * that of every process below it, read from /proc: the processes reaped
 * (their CPU is in the worker's cutime and cstime, and a runtime's in its
 * CLI's, which the worker reaps) and those still alive at the file's end,
 * walked down the tree (esbuild's service lives as long as the worker). A
 * worker that runs several files (the pure project shares one) charges each
 * file what the tree took since the previous file ended; the first file of a
 * worker also pays the worker's start. Each record is one JSON file in the
 * run's temporary folder, which test/helpers/cpu-reporter.ts reads at the end.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll } from 'vitest';
import { cpuRecordDir, cpuRecordFile, parseProcStat, TICKS_PER_S, type CpuRecord } from './cpu-budget.ts';
import { childrenOf } from '@rtbench/process/process-tree';

/** A /proc file's text, or undefined once the process is gone. */
const readProc = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

const repoRoot = join(import.meta.dirname, '..', '..');

/** CPU ticks of a live process: its own, its reaped children's, and its live descendants'. */
function treeTicks(pid: number): number {
  const text = readProc(`/proc/${pid}/stat`);
  if (text === undefined) return 0;
  const st = parseProcStat(text);
  return st.utime + st.stime + st.cutime + st.cstime + childrenOf(pid).reduce((sum, c) => sum + treeTicks(c), 0);
}

interface Mark {
  ticks: number;
  childTicks: number;
}

const own = (): number => {
  const st = parseProcStat(readProc('/proc/self/stat') ?? '');
  return st.utime + st.stime;
};
const mark = (): Mark => {
  const ticks = treeTicks(process.pid);
  return { ticks, childTicks: ticks - own() };
};

// The worker's mark at the previous file's end, kept across files when a worker runs several.
const KEY = Symbol.for('rtbench.cpu-record.last-mark');
const store = globalThis as { [KEY]?: Mark };
const start: Mark = store[KEY] ?? { ticks: 0, childTicks: 0 };

const tmpRoot = process.env.RTBENCH_TEST_TMP;
if (tmpRoot && process.platform === 'linux') {
  afterAll(({}, suite) => {
    const end = mark();
    store[KEY] = end;
    const filepath = suite.file.filepath;
    const record: CpuRecord = {
      file: relative(repoRoot, filepath),
      cpuS: (end.ticks - start.ticks) / TICKS_PER_S,
      childrenS: Math.max(0, end.childTicks - start.childTicks) / TICKS_PER_S,
      leftRunning: childrenOf(process.pid).length,
    };
    const dir = cpuRecordDir(tmpRoot);
    mkdirSync(dir, { recursive: true });
    writeFileSync(cpuRecordFile(tmpRoot, record.file), JSON.stringify(record));
  });
}
