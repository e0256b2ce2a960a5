/**
 * The data a runtime plug-in (plugin.ts) and the host pass each other: a
 * resolved binary, translated flags, a job to run (what came of it is
 * @rtbench/process's JobOutcome).
 */
import type { Job } from '@rtbench/core/protocol';
import type { RuntimeKind } from '@rtbench/core/suite';

/** Where a pinned npm runtime was found: rtbench's checkout (node_modules) or the cache of installs on demand. */
export type NpmInstallLocation = 'workspace' | 'cache';

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
  /** Its engine's id (the plug-in's EngineDescriptor.id): "v8". */
  engine: string;
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
  /**
   * Let the process keep the bundle's compiled code for the next process on
   * the same bundle, where the runtime can (code-cache.ts): for processes
   * whose start is not what is measured. Absent, every start compiles from source.
   */
  codeCache?: boolean;
}

/** How the in-runtime entry is bundled for this runtime. */
export interface BundleTarget {
  /** Absolute path of the module that exports `start(suite)`. */
  entry: string;
  /**
   * The suite's module is evaluated in the first job, not as the bundle loads:
   * `start` gets a function that loads it (the Workers runtime refuses I/O,
   * timers, random values and a Request with a body in a module's global scope,
   * where a brought file's top-level code would otherwise run).
   */
  suiteInFirstJob?: boolean;
  platform: 'node' | 'neutral' | 'browser';
  conditions: string[];
  /** package.json fields to try when a package has no matching "exports" (esbuild's default for the platform if absent). */
  mainFields?: string[];
}

/**
 * A plug-in loaded as CommonJS (a folder without "type": "module") gets its
 * own copy of this module, and so other classes of the same name. The errors
 * a plug-in throws to say what it cannot do are recognised by a mark every
 * copy sets (Symbol.for is shared across copies), not by class identity:
 * `instanceof` on the base class checks the mark; on a subclass it is the
 * usual prototype check.
 */
const UNAVAILABLE = Symbol.for('rtbench.runtime-unavailable');
const FLAG = Symbol.for('rtbench.flag-error');

function marked(mark: symbol, value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[mark] === true;
}

/** The runtime can't be started: not installed, path missing, not executable. */
export class RuntimeUnavailableError extends Error {
  override readonly name = 'RuntimeUnavailableError';
  readonly [UNAVAILABLE] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === RuntimeUnavailableError ? marked(UNAVAILABLE, value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/** An engine flag that rtbench cannot translate or that the runtime rejected. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
  readonly [FLAG] = true;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === FlagError ? marked(FLAG, value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
}
