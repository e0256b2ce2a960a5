/**
 * The contract between the host and a runtime runner. A runner knows how to
 * find its runtime's binaries, how to spell engine flags for it, how its
 * in-runtime entry is bundled, and how to run one Job in a fresh process.
 */
import type { Job, RuntimeMessage } from '@rtbench/core/protocol';
import type { RuntimeKind } from '@rtbench/core';
import type { LiveCase, WarmProcess } from './session.ts';
import type { NpmInstallLocation, RuntimeStore } from './runtime-store.ts';
import type { NpmRuntime } from './npm-runtime.ts';
import type { RuntimeReleases } from './releases.ts';

/** A concrete runtime binary the host can start. */
export interface RuntimeTarget {
  runtime: RuntimeKind;
  /** The spec as the user wrote it or as listed: "node@24", "node=/opt/node", "deno". */
  spec: string;
  binary: string;
  source: 'npm' | 'system' | 'path';
  /** For source 'npm': found in node_modules (rtbench's checkout) or in the cache of installs on demand. */
  npmLocation?: NpmInstallLocation;
  version: string;
  engine: 'v8' | 'jsc';
  engineVersion: string;
}

/** Engine flags as the runtime takes them: command-line arguments and/or env. */
export interface TranslatedFlags {
  args: string[];
  env: Record<string, string>;
}

export interface JobRequest {
  target: RuntimeTarget;
  flags: TranslatedFlags;
  /** The bundled suite + this runtime's entry, one ESM file. */
  bundlePath: string;
  job: Job;
  /** Hard limit for the whole process; it is killed after this. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Run the runtime under this program (e.g. valgrind): `command ...args <runtime binary> <its args>`. */
  wrap?: { command: string; args: string[] };
}

export interface JobOutcome {
  messages: RuntimeMessage[];
  /**
   * Exit code, or null when killed by a signal. A server runtime (workerd)
   * is stopped by its runner once the response has ended: that reads as 0.
   */
  exitCode: number | null;
  exitSignal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  /** Last part of stderr (and of non-protocol stdout), for error reports. */
  stderr: string;
  /**
   * How the process broke the protocol: marked lines (with its token) that
   * did not validate, messages out of order or after its one answer,
   * oversized lines. Any entry fails the job.
   */
  protocolErrors: string[];
  wallMs: number;
  /** ms on the host's clock from reading the process's hello to reading its answer (absent when either is missing). */
  hostSpanMs?: number;
  /**
   * The process gave its answer but had not exited EXIT_GRACE_MS later, so
   * the host ended it (node 26 was seen to deadlock in its own exit, joining
   * V8's worker threads, after an allocation-heavy lockstep job).
   */
  stoppedAfterAnswer?: boolean;
  /** Processes the job's process started that were still running when it exited; ended then (containment.ts). */
  leftBehind?: number[];
  /** It closed its stdout (rtbench's channel) while still running, before answering; the host ended it. */
  stdoutClosed?: boolean;
  /** At the timeout, it was blocked reading its stdin (which carries rtbench's job and commands). */
  blockedOnStdin?: boolean;
  /** A process that escaped containment still held its stdout or stderr after it exited; the host stopped reading (process.ts STDIO_GRACE_MS). */
  pipeHeld?: boolean;
}

/** How the in-runtime entry is bundled for this runtime. */
export interface BundleTarget {
  /** Absolute path of the module that exports `start(suite)`. */
  entry: string;
  platform: 'node' | 'neutral' | 'browser';
  conditions: string[];
  /** package.json fields to try when a package has no matching "exports" (esbuild's default for the platform if absent). */
  mainFields?: string[];
}

export interface Runner {
  readonly runtime: RuntimeKind;
  readonly bundle: BundleTarget;
  /** The specs this runner accepts by name (e.g. node@20 … node@26, node@system), with a one-line note each. */
  knownSpecs(): { spec: string; note: string }[];
  /** The runtimes this runner installs from npm at pinned versions (node@20 … node@26; deno). */
  readonly npmRuntimes: readonly NpmRuntime[];
  /**
   * Any published release as a variant (`node@24.3.0`): which npm package
   * holds the releases and how a spec names one (releases.ts). Absent: only
   * the pinned versions install from npm.
   */
  readonly releases?: RuntimeReleases;
  /** Accepts a spec for this runtime? (`node`, `node@24`, `node=/path`). */
  accepts(spec: string): boolean;
  /**
   * Find the binary and ask it for its version and engine. Throws
   * RuntimeUnavailableError. A pinned npm runtime is looked for, and
   * installed on demand, through `store` (default: node_modules only).
   */
  resolve(spec: string, store?: RuntimeStore): Promise<RuntimeTarget>;
  /** rtbench's one flag syntax (--name or --name=value) to this runtime's. Throws FlagError. */
  translateFlags(flags: readonly string[]): TranslatedFlags;
  /** Start the runtime with these flags doing nothing; throws FlagError if it rejects them. */
  checkFlags(target: RuntimeTarget, flags: TranslatedFlags): Promise<void>;
  runJob(request: JobRequest): Promise<JobOutcome>;
  /**
   * Starts a lockstep job (request.job.kind 'lockstep') and keeps the process
   * alive for the host to ask for samples in turn (session.ts).
   */
  startSession(request: JobRequest): LiveCase;
  /**
   * Starts a serve job (request.job.kind 'serve'): a warm process that sets
   * up, samples and tears down many lockstep cases one after another
   * (session.ts). `timeoutMs` bounds the whole process; each case has its own.
   * Absent: the runtime cannot serve many cases, and each gets its own process.
   */
  startWarm?(request: JobRequest): WarmProcess;

  /**
   * How this runtime names its JIT code for a native profiler (`--profile
   * native`, perf); absent: native profiles are unavailable on it.
   */
  readonly nativeProfile?: NativeProfileHook;
}

/** What a native profile (perf) needs of a runtime: JIT code named, and what its binary lets perf resolve. */
export interface NativeProfileHook {
  /**
   * The variant's flags plus the ones that make the engine write its JIT
   * code's names: a perf map (`/tmp/perf-<pid>.map`, V8's --perf-basic-prof)
   * or a jitdump file in `jitDir` (JavaScriptCore).
   */
  withJitNames(flags: TranslatedFlags, jitDir: string): TranslatedFlags;
  /** Where the names are: 'perf-map' (perf reads it itself) or 'jitdump' files in jitDir (rtbench turns them into a perf map). */
  readonly jitNames: 'perf-map' | 'jitdump';
  /** What a profile of this runtime can resolve, one line (symbols, JIT names, what is missing). */
  readonly resolves: string;
}

/** The runtime can't be started: not installed, path missing, not executable. */
export class RuntimeUnavailableError extends Error {
  override readonly name = 'RuntimeUnavailableError';
}

/** An engine flag that rtbench cannot translate or that the runtime rejected. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}
