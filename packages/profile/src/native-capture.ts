/**
 * One native profile of one case × arm (`--profile native`): an extra process
 * under `perf record` of the software CPU clock, the engine told to name its
 * JIT code (the plug-in's `nativeProfile` hook), and perf switched on and off
 * by the host through its control fifo around the lockstep samples. Between
 * samples the process waits off the CPU, so the window is the sampling phase
 * by the harness's own markers, with no clock to line up. perf script's stacks
 * (perf-script.ts) become a `.cpuprofile` (native-frames.ts) that summary.ts
 * and tree.ts read as they read CPU profiles. Step by step:
 * docs/native-profiles.md "How a profile is taken".
 */
import { execFile, execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CaseResultMessage } from '@rtbench/core/protocol';
import type { CallTree } from '@rtbench/core/profile-manifest';
import { guardDir, pidAlive, removeGuardedDir } from '@rtbench/process';
import { writeFileAtomically } from '@rtbench/host/files';
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import { perfRecordWrap } from '@rtbench/host/tools';
import { inlinedIntoTimedPath } from './alloc-summary.ts';
import { DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, PROFILE_DIR_PREFIX, processProblem, profileLockstepJob, type ProfileArm } from './capture.ts';
import type { SamplingWindow } from './cpuprofile.ts';
import { parseJitdump, perfMapLines } from './jitdump.ts';
import { demangleSamples, findCxxFilt } from './native-demangle.ts';
import { harnessFrames, nativeSymbolsOf, nativeToCpuProfile, type NamedFrame } from './native-frames.ts';
import { parsePerfScript, PERF_SCRIPT_FIELDS, type PerfSample } from './perf-script.ts';
import { perfRefusal } from './perf-refusal.ts';
import { bundleLocator } from './source-map.ts';
import { summarize, type NodeFramesOptions, type ProfileSummary } from './summary.ts';
import { callTree } from './tree.ts';

const run = promisify(execFile);

/** The software clock's period: 250 µs, the interval of the CPU profiles (4,000 samples per second of CPU). */
const DEFAULT_NATIVE_PERIOD_US = 250;
/** How long perf may take to acknowledge `enable`/`disable` on its control fifo. */
const ACK_WAIT_MS = 5_000;

export interface NativeCaseOptions {
  arm: ProfileArm;
  caseId: string;
  /** The perf binary (host findPerf). */
  perf: string;
  /** Where the `.cpuprofile` of the native stacks is written; its folder is made. */
  outPath: string;
  timeMs?: number;
  warmupMs?: number;
  periodUs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What perf could resolve, and the samples behind the shares. */
interface NativeResolution {
  periodUs: number;
  samples: number;
  otherThreadSamples: number;
  unresolvedShare: number;
  note: string;
}

/** Where a native profile's wall time went, ms (scripts/measure/profiles/native-cost.ts prints it). */
interface NativeTimings {
  /** perf record and the runtime, from start to exit (start-up, warmup, the window, perf writing perf.data). */
  recordMs: number;
  /** perf script: reading perf.data, resolving every frame's symbol. */
  scriptMs: number;
  /** Parsing the stacks, naming and categorising frames, the summary and call tree, writing the file. */
  foldMs: number;
}

export type NativeCaseResult =
  | { status: 'ok'; path: string; method: string; window: SamplingWindow; summary: ProfileSummary; tree: CallTree; resolution: NativeResolution; timings: NativeTimings; result?: CaseResultMessage }
  | { status: 'unavailable'; reason: string }
  | { status: 'unsupported'; reason: string }
  | { status: 'failed'; reason: string; stderr?: string };

/** perf's control fifo, held open read-write by the host (so neither side blocks on open). */
class PerfControl {
  private readonly control: number;
  private readonly ack: number;
  constructor(controlPath: string, ackPath: string) {
    this.control = openSync(controlPath, constants.O_RDWR | constants.O_NONBLOCK);
    this.ack = openSync(ackPath, constants.O_RDWR | constants.O_NONBLOCK);
  }
  /** Sends a command ('enable', 'disable') and waits for perf's ack. */
  async command(what: 'enable' | 'disable'): Promise<void> {
    writeSync(this.control, `${what}\n`);
    const until = performance.now() + ACK_WAIT_MS;
    const buffer = Buffer.alloc(64);
    let got = '';
    while (!got.includes('ack')) {
      try {
        const n = readSync(this.ack, buffer, 0, buffer.length, null);
        got += buffer.toString('utf8', 0, n);
        continue;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (performance.now() > until) throw new Error(`perf did not acknowledge "${what}" on its control fifo within ${ACK_WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  close(): void {
    closeSync(this.control);
    closeSync(this.ack);
  }
}

/**
 * JavaScriptCore's jitdump files in `dir`, as perf maps in /tmp (where perf
 * script looks for them); returns the maps written, for removal.
 */
function jitdumpsToPerfMaps(dir: string): string[] {
  const written: string[] = [];
  for (const file of readdirSync(dir).filter((f) => /^jit-.*\.dump$/.test(f))) {
    const data = readFileSync(join(dir, file));
    const pid = data.length >= 24 ? data.readUInt32LE(20) : 0;
    const map = `/tmp/perf-${pid}.map`;
    if (!pid || existsSync(map)) continue;
    writeFileSync(map, perfMapLines(parseJitdump(data)));
    written.push(map);
  }
  return written;
}

const perfMaps = (): string[] => readdirSync('/tmp').filter((f) => /^perf-\d+\.map$/.test(f));

/**
 * Perf maps that appeared while the profiled process ran and whose process
 * has ended: the profiled runtime's, when the profile failed before perf
 * script could say its pid (a map of another live process is left alone).
 */
function leftMaps(before: ReadonlySet<string>): string[] {
  return perfMaps()
    .filter((f) => !before.has(f) && !pidAlive(Number(/\d+/.exec(f)![0])))
    .map((f) => join('/tmp', f));
}

/** The thread that ran the JavaScript: the most samples with a JIT frame on the stack (then the most samples). */
function jsThread(samples: readonly PerfSample[]): number | undefined {
  const score = new Map<number, { js: number; all: number }>();
  for (const s of samples) {
    const t = score.get(s.tid) ?? { js: 0, all: 0 };
    t.all++;
    if (s.frames.some((f) => /^\/tmp\/perf-\d+\.map$/.test(f.dso) && f.symbol !== undefined)) t.js++;
    score.set(s.tid, t);
  }
  return [...score].sort((a, b) => b[1].js - a[1].js || b[1].all - a[1].all)[0]?.[0];
}

/**
 * Takes one native profile of one case on one arm and writes its sampling
 * phase, as a `.cpuprofile` of native and JIT frames, to `outPath`. Never
 * throws for what the runtime, perf or the case did.
 */
export async function profileNative(options: NativeCaseOptions): Promise<NativeCaseResult> {
  const { arm, caseId, outPath, perf } = options;
  const hook = arm.plugin.nativeProfile;
  if (isUnavailable(hook)) return { status: 'unavailable', reason: cannotMessage(arm.plugin, 'nativeProfile', hook) };
  const timeMs = options.timeMs ?? DEFAULT_PROFILE_TIME_MS;
  const warmupMs = options.warmupMs ?? DEFAULT_PROFILE_WARMUP_MS;
  const periodUs = options.periodUs ?? DEFAULT_NATIVE_PERIOD_US;
  const timeoutMs = options.timeoutMs ?? warmupMs + timeMs + 60_000;
  const dir = mkdtempSync(join(tmpdir(), `${PROFILE_DIR_PREFIX}${process.pid}-`));
  guardDir(dir);
  const maps: string[] = [];
  const mapsBefore = new Set(perfMaps());
  const started = Date.now();
  const t0 = performance.now();
  try {
    const controlPath = join(dir, 'control.fifo');
    const ackPath = join(dir, 'ack.fifo');
    execFileSync('mkfifo', [controlPath, ackPath]);
    const control = new PerfControl(controlPath, ackPath);
    const data = join(dir, 'perf.data');
    const live = arm.plugin.startSession({
      target: arm.target,
      bundlePath: arm.bundlePath,
      job: profileLockstepJob(caseId, warmupMs),
      timeoutMs,
      flags: hook.withJitNames(arm.flags, dir),
      wrap: perfRecordWrap(perf, { output: data, controlFifo: controlPath, ackFifo: ackPath, periodNs: periodUs * 1000 }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let windowMs = 0;
    let windowError: string | undefined;
    try {
      if (await live.ready) {
        await control.command('enable');
        const from = performance.now();
        let counted = 0;
        while (performance.now() - from < timeMs || counted < 5) {
          if (options.signal?.aborted) throw new Error('interrupted');
          if ((await live.sample()) === undefined) throw new Error('the process stopped answering samples');
          counted++;
        }
        await control.command('disable');
        windowMs = performance.now() - from;
      }
    } catch (error) {
      windowError = (error as Error).message;
    } finally {
      control.close();
    }
    const outcome = await live.finish();
    const recorded = performance.now();
    // perf's refusal (its paranoid message, exit 255) is the reason, not the exit code it caused.
    const refused = perfRefusal(outcome.stderr);
    const problem = processProblem(outcome);
    if (problem?.status === 'failed' && refused) return { ...problem, reason: refused };
    if (problem) return problem.status === 'failed' && windowError ? { ...problem, reason: `${problem.reason}; ${windowError}` } : problem;
    if (windowError) return { status: 'failed', reason: `perf's sampling window: ${windowError}`, stderr: outcome.stderr.slice(-4000) };
    if (!existsSync(data) || statSync(data).size === 0) return { status: 'failed', reason: `perf wrote no data for ${arm.target.spec}`, stderr: outcome.stderr.slice(-4000) };

    if (hook.jitNames === 'jitdump') maps.push(...jitdumpsToPerfMaps(dir));
    const cxxfilt = findCxxFilt();
    let text: string;
    try {
      text = (await run(perf, ['script', '-i', data, ...PERF_SCRIPT_FIELDS, ...(cxxfilt ? ['--no-demangle'] : [])], { maxBuffer: 1 << 30, encoding: 'utf8' })).stdout;
    } catch (error) {
      return { status: 'failed', reason: `perf script failed: ${(error as Error).message.split('\n')[0]}` };
    }
    const { samples } = parsePerfScript(text);
    if (cxxfilt) demangleSamples(samples, cxxfilt);
    const scripted = performance.now();
    // V8's perf maps of the profiled process (perf script has read them): ours to remove.
    for (const pid of new Set(samples.map((s) => s.pid))) {
      const map = `/tmp/perf-${pid}.map`;
      if (existsSync(map) && statSync(map).mtimeMs >= started - 1000) maps.push(map);
    }
    const tid = jsThread(samples);
    const thread = samples.filter((s) => s.tid === tid);
    if (!thread.length) return { status: 'failed', reason: `perf sampled nothing of ${arm.target.spec} in the sampling phase (${windowMs.toFixed(0)} ms)` };
    const locate = bundleLocator(arm.bundlePath, arm.plugin.frames.bundleModule);
    // Stacks start at the harness's outermost frame (bun's JavaScript has no source position: its outermost JIT frame).
    const inHarness = (f: NamedFrame): boolean => (f.javascript ? locate(f.callFrame)?.inBundle === true : f.category === 'benchmark');
    const { profile, categories, unresolvedSamples } = nativeToCpuProfile(thread, { symbols: nativeSymbolsOf(arm.plugin), isHarnessStart: inHarness, harnessKind: harnessFrames(locate) });
    const frames: NodeFramesOptions = { categoryOf: (id) => categories.get(id), inlined: inlinedIntoTimedPath };
    writeFileAtomically(outPath, JSON.stringify(profile));
    const resolution: NativeResolution = {
      periodUs,
      samples: thread.length,
      otherThreadSamples: samples.length - thread.length,
      unresolvedShare: unresolvedSamples / thread.length,
      note: hook.resolves,
    };
    const profileMs = profile.endTime / 1000;
    const result = outcome.messages.find((m): m is CaseResultMessage => m.type === 'result');
    const summary = summarize(profile, { locate, frames });
    const tree = callTree(profile, { locate, frames });
    return {
      status: 'ok',
      path: outPath,
      method: `perf record -e cpu-clock -c ${periodUs * 1000} -g (frame pointers), switched on and off around the lockstep samples; ${hook.jitNames === 'jitdump' ? "JIT code named from JavaScriptCore's jitdump" : "JIT code named from V8's perf map"}`,
      window: { method: 'markers', kept: thread.length, total: samples.length, windowMs, profileMs },
      summary,
      tree,
      resolution,
      timings: { recordMs: recorded - t0, scriptMs: scripted - recorded, foldMs: performance.now() - scripted },
      ...(result ? { result } : {}),
    };
  } catch (error) {
    return { status: 'failed', reason: (error as Error).message };
  } finally {
    for (const map of [...maps, ...leftMaps(mapsBefore)]) rmSync(map, { force: true });
    removeGuardedDir(dir);
  }
}

