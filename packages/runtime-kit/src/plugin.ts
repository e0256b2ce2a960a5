/**
 * A runtime plug-in: everything rtbench needs of one runtime, in one object
 * (runners/<name>/src/plugin.ts exports it; packages/runtime-registry lists
 * them). Nothing outside a plug-in branches on a runtime's name: the suite
 * API, the CLI, reports, host-timed cases and profiles ask the plug-in.
 *
 * What a runtime cannot do it declares in place of the hook, as
 * `{ unavailable: '<why>' }`; the sentence a user reads is made by
 * @rtbench/host's cannotMessage(), the one place that says so.
 */
import type { ServerPermissions } from '@rtbench/core/server-permissions';
import type { WorkersCompatibility } from '@rtbench/core/request';
import type { ChildExit, JobOutcome, LiveCase, RunningJob, Tail, WarmProcess } from '@rtbench/process';
import type { RuntimeStore } from './store.ts';
import type { NpmRuntime } from './npm-runtime.ts';
import type { RuntimeReleases } from './releases.ts';
import type { RuntimeIdentity } from './engine.ts';
import type { BundleTarget, JobRequest, RuntimeTarget, TranslatedFlags } from './types.ts';

/** A capability the runtime does not have, and why (one clause, no runtime name: the host's cannotMessage() adds it). */
export interface Unavailable {
  readonly unavailable: string;
}

/** A hook, or the declaration that the runtime cannot do it. */
type Capability<T> = T | Unavailable;

/** How a plain program (a start-up program, a server) is started as a command. */
interface ProgramCommand {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
}

interface ProgramOptions {
  /** A directory for the runtime's own code cache between runs; absent: no cache at all. */
  cacheDir?: string;
  /** Let the program listen on loopback (deno needs the permission). */
  net?: boolean;
  /**
   * What a server a suite brings asks for (core's server-permissions.ts):
   * a runtime that grants access by permission grants these and no more;
   * the others ignore it.
   */
  permissions?: ServerPermissions;
}

/** A runtime serving a program on 127.0.0.1, started by its plug-in. */
export interface ServedProgram {
  readonly pid: number | undefined;
  /** The bound port, or undefined if the runtime ended before listening. */
  listening: Promise<number | undefined>;
  /** Its stdout and stderr, for error reports. */
  output: Tail;
  exited: Promise<ChildExit>;
  /** Kill it now. */
  kill(): void;
  readonly killed: boolean;
  /** Remove what was written to serve it (a config folder); after it has exited. */
  cleanup(): void;
  /** The inspector's port, when served with `inspector` (undefined if the runtime ended first). */
  readonly inspector?: Promise<number | undefined>;
}

/**
 * How plain programs run (host-timed cases: start-up timed from outside,
 * servers under load). 'process': a program is a script the runtime runs; a
 * start-up program prints its value, and a server prints "listening <port>"
 * first. 'server': the runtime serves a module whose top level sets
 * `globalThis[handlerKey]` to a fetch handler (`{ fetch }`), on a port it reports.
 */
type ProgramHost =
  | {
      readonly kind: 'process';
      command(target: RuntimeTarget, flags: TranslatedFlags, script: string, options?: ProgramOptions): ProgramCommand;
      /** The code cache a start-up program can keep between starts (in ProgramOptions.cacheDir). */
      readonly codeCache: Capability<{ readonly note: string }>;
      readonly isolateStart: Unavailable;
      /**
       * The module whose `serveFetch` export (ServeFetch) serves a fetch handler in a program: a
       * request case's server is bundled with it. Absent: node:http through a fetch adapter.
       */
      readonly fetchServer?: string;
    }
  | {
      readonly kind: 'server';
      readonly handlerKey: string;
      /** `options.compatibility`: the Workers compatibility date and flags the program was written for (a wrangler project's), instead of the runtime's own; `options.inspector`: with its inspector on (a CPU profile of the server). */
      serve(target: RuntimeTarget, flags: TranslatedFlags, modulePath: string, options?: { compatibility?: WorkersCompatibility; inspector?: boolean }): ServedProgram;
      /** Why it cannot serve a program with these compatibility settings (a date newer than its own, a flag it does not know), in one clause; checked before any round. */
      compatibilityProblem?(target: RuntimeTarget, compatibility: WorkersCompatibility): string | undefined;
      readonly codeCache: Unavailable;
      /**
       * A running server that loads the program (a module whose default export
       * is `{ fetch }`) as a new isolate on each GET /load, and a tiny one on
       * GET /warm (answering "warm"): isolate start timed on its own.
       */
      readonly isolateStart: Capability<{ serveLoader(target: RuntimeTarget, flags: TranslatedFlags, modulePath: string): ServedProgram }>;
      /** Why a served program's top level cannot be timed on the runtime's own clock, when it cannot. */
      readonly topLevelTime?: Unavailable;
    };

/**
 * A fetch server module's export, run inside the runtime: serves `handler` on
 * 127.0.0.1, a port the kernel picks, and calls `listening` with that port.
 */
export type ServeFetch = (handler: (request: Request) => Promise<Response>, listening: (port: number) => void) => void;

/** What runs around the job's exchange on a runtime that serves jobs over a connection (workerd). */
interface ExchangeHooks {
  /** The runtime listens, the job is not yet sent; `port` is the inspector's (undefined if it reported none). */
  beforeExchange?(port: Promise<number | undefined>): Promise<void>;
  afterExchange?(): Promise<void>;
}

/** The runtime's inspector (Chrome DevTools Protocol on 127.0.0.1). */
export interface InspectorHook {
  /**
   * Starts the job with the inspector on; `port` resolves once it is known
   * (undefined if the runtime ended first). `around` runs only on a runtime
   * with an exchange (`exchange: true`); a process gets its job at its start.
   */
  start(request: JobRequest, around?: ExchangeHooks): Promise<{ running: RunningJob; port: Promise<number | undefined> }>;
  /** The job is sent over a connection after start-up (hooks run around it), not on stdin at spawn. */
  readonly exchange: boolean;
}

/** A CPU profile: the runtime writes a .cpuprofile at exit ('file'), or rtbench takes one over the inspector around the exchange ('inspector'). */
export type CpuProfileHook =
  | { readonly method: string; readonly kind: 'file'; flags(dir: string, name: string, intervalUs: number): TranslatedFlags }
  | { readonly method: string; readonly kind: 'inspector' };

/** An allocation profile: V8's sampling heap profiler over the inspector, around the lockstep samples. */
export interface AllocationProfileHook {
  readonly method: string;
}

/** What a native profile (perf) needs of a runtime: JIT code named, and what its binary lets perf resolve. */
interface NativeProfileHook {
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

/** How a runtime's own code shows in stacks and profiles, so that it is told apart from the suite's. */
interface RuntimeFrames {
  /** Its own native functions (its C++, Rust or Zig and the libraries it links), by symbol: a native profile charges them to the runtime. */
  readonly nativeSymbols: RegExp;
  /** The module name its stacks and profiles give the bundle, when they do not give the bundle's path. */
  readonly bundleModule?: string;
}

export interface RuntimePlugin extends RuntimeIdentity {
  /** How its own code shows in stacks and profiles. */
  readonly frames: RuntimeFrames;
  /** How the in-runtime entry (and any program for it) is bundled. */
  readonly bundle: BundleTarget;

  // --- specs and binaries ---
  /** The specs it accepts by name (e.g. node@20 … node@26, node@system), with a one-line note each. */
  knownSpecs(): { spec: string; note: string }[];
  /** The runtimes it installs from npm at pinned versions (node@20 … node@26; deno). */
  readonly npmRuntimes: readonly NpmRuntime[];
  /** Any published release as a variant (`node@24.3.0`), from the package that holds them (releases.ts). Absent: only the pins install. */
  readonly releases?: RuntimeReleases;
  /** Accepts a spec for this runtime? (`node`, `node@24`, `node=/path`). */
  accepts(spec: string): boolean;
  /**
   * Finds the binary (installing a pinned npm runtime on demand through
   * `store`, default node_modules only), verifies it and asks it for its
   * version and engine. Throws RuntimeUnavailableError.
   */
  resolve(spec: string, store?: RuntimeStore): Promise<RuntimeTarget>;
  /** How its version or engine is read when the runtime does not simply say it; one sentence for `rtbench runtimes`. */
  readonly versionNote?: string;

  // --- engine flags ---
  /** rtbench's one flag syntax (--name or --name=value) to this runtime's. Throws FlagError. */
  translateFlags(flags: readonly string[]): TranslatedFlags;
  /** Starts the runtime with these flags doing nothing; throws FlagError if it rejects them. */
  checkFlags(target: RuntimeTarget, flags: TranslatedFlags): Promise<void>;

  // --- the in-runtime loop ---
  runJob(request: JobRequest): Promise<JobOutcome>;
  /** Starts a lockstep job and keeps the process alive for the host to ask for samples in turn (session.ts). */
  startSession(request: JobRequest): LiveCase;
  /**
   * Starts a serve job: a warm process that runs many lockstep cases one
   * after another (session.ts). Absent: each case gets its own process.
   */
  startWarm?(request: JobRequest): WarmProcess;
  /** Environment that makes its work repeatable under instruction counts, beyond engine flags (bun: its own GC timer off). */
  readonly countingEnv?: Readonly<Record<string, string>>;
  /**
   * Environment a lockstep process (startSession, startWarm) starts with, since it sits idle while other processes take
   * their turns: waiting then costs its next sample nothing a program running without pause would not pay (bun: its
   * allocator keeps freed pages). The variant's own environment wins; a case does not see it in `process.env`.
   */
  readonly waitingEnv?: Readonly<Record<string, string>>;
  /** The engine metrics its jobs report (GC by kind, allocation, heap), and where they come from; one line. */
  readonly engineMetrics: string;

  // --- plain programs (host-timed cases) ---
  readonly programs: ProgramHost;

  // --- profiles ---
  readonly inspector: Capability<InspectorHook>;
  readonly cpuProfile: Capability<CpuProfileHook>;
  readonly allocationProfile: Capability<AllocationProfileHook>;
  readonly nativeProfile: Capability<NativeProfileHook>;
}
