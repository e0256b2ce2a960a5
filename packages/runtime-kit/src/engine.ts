/**
 * An engine: what runs a runtime's JavaScript. Each plug-in declares its
 * engine (RuntimePlugin.engine); a run records the engine's id, reports name
 * it, instruction counts take their flags and threshold from it, and native
 * profiles recognise its symbols by it. V8 is declared here because three
 * plug-ins share it; an engine of one runtime is declared beside its plug-in.
 */
import type { RuntimeKind } from '@rtbench/core/suite';

/** How an engine's work is made repeatable and judged under instruction counts. */
interface EngineCounting {
  /** Engine flags (rtbench's one syntax) that make its work repeatable. */
  readonly determinismFlags: readonly string[];
  /** The verdict threshold of counts on it: the largest between-process spread of a count measured on it, rounded up (docs/instructions.md). */
  readonly threshold: number;
  /** Its processes preload the fixed-random library (packages/host fixed-random.ts): OS randomness it draws is not fixed by any flag. */
  readonly fixedRandom: boolean;
}

/**
 * What an engine's tiers are known to need before a flat stretch of batch
 * times means a case is steady, and how long a warmup may watch at most
 * (the lockstep measurer's steady rule: run steady-rule.ts; measured per
 * engine: docs/measurements/harness-figures.md, "Tier-up by calls").
 */
interface WarmupHorizon {
  /** Never steady before this many ms (a compiler on a background thread may not have finished). */
  readonly minMs: number;
  /** Never steady before this many calls of the case where they come within tierUpWithinMs: the engine tiers up by calls. */
  readonly tierUpCalls: number;
  readonly tierUpWithinMs: number;
  /** A case not steady by then is sampled anyway and classified as having no steady state. */
  readonly maxMs: number;
}

export interface EngineDescriptor {
  /** As a run records it: "v8", "jsc" (lower-case letters, digits and dashes). */
  readonly id: string;
  /** As a report writes it: "V8", "JavaScriptCore". */
  readonly displayName: string;
  /** In a narrow column: "JSC". */
  readonly shortName: string;
  /** Its tiers' warmup horizon (absent: the measurer's default). */
  readonly warmup?: WarmupHorizon;
  /** Absent: its work cannot be made repeatable under valgrind, and `--measure instructions` refuses its variants. */
  readonly counting?: EngineCounting;
  /**
   * Engine flags (rtbench's one syntax) that let the harness force a full
   * collection (RuntimeEnvironment.collect), which a lockstep process takes
   * outside its timed batches: absent where the runtime always can.
   */
  readonly collectFlags?: readonly string[];
  /** The engine's own native functions (its C++, its builtins, its interpreter), by symbol: a native profile charges them to the engine. */
  readonly nativeSymbols: RegExp;
  /** Its garbage collector's own native functions: a native profile charges them to GC. */
  readonly gcSymbols: RegExp;
}

export const V8_ENGINE: EngineDescriptor = {
  id: 'v8',
  displayName: 'V8',
  shortName: 'V8',
  // V8's measured tier-up steps, by calls and by time (docs/measurements/harness-figures.md, "Tier-up by calls"):
  // 30,000 calls where they come within 1.5 s, and up to 3 s of watching.
  warmup: { minMs: 50, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 },
  // gc() on the global object; the engine's own collections go on as without it.
  collectFlags: ['--expose-gc'],
  counting: {
    // --predictable: no background threads, fixed seeds. --predictable-gc-schedule: semi-spaces of a fixed size and the
    // old generation's limit grown by a fixed share, instead of sizes that follow the measured GC and allocation speeds
    // (clock-driven: under valgrind they differ between processes, and so do where the collections land). The three
    // --no-…-task: V8's GC work that waits for the process to be idle or for a timer; between two samples the process
    // idles for as long as the host takes. --no-incremental-marking: a major collection marks in one pause instead of in
    // steps sized by a marking speed measured on the clock. --expose-gc: the young generation emptied before each sample
    // of one call, and a full collection before each case opens, both outside the count.
    determinismFlags: ['--predictable', '--predictable-gc-schedule', '--no-memory-reducer', '--no-incremental-marking-task', '--no-minor-gc-task', '--no-incremental-marking', '--expose-gc'],
    threshold: 0.005,
    fixedRandom: false,
  },
  nativeSymbols: /^(v8::|v8_|Builtins_|cppgc::)/,
  // The scavenger, minor mark-sweep, mark-compact, concurrent marking, the sweeper; cppgc's.
  gcSymbols:
    /(^|::)(Heap::(CollectGarbage|CollectAllGarbage|PerformGarbageCollection|GarbageCollectionPrologue|GarbageCollectionEpilogue|Scavenge|MarkCompact|MinorMarkSweep)|Scaveng\w*|MarkCompactCollector|MinorMarkSweep\w*|MinorMS\w*|IncrementalMarking|ConcurrentMarking|\w*MarkingVisitor\w*|MarkingBarrier|Sweeper|\w*Evacuat\w*|GCTracer|MarkingWorklist\w*)(::|<|$)|^cppgc::internal::(Marker|Sweeper|Compactor|MarkingVisitor)/,
};

/** A runtime as a saved run names it: what a plug-in is called, and the engine it runs on (a plug-in spreads its own, `runners/<name>/src/identity.ts`). */
export interface RuntimeIdentity {
  /** The name in specs, results and tables: `node`, `deno`, `bun`, `workerd`. */
  readonly name: RuntimeKind;
  /** As a report writes it: "Node.js". */
  readonly displayName: string;
  /** The engine that runs its JavaScript: the id a run records, its names, how it is counted. */
  readonly engine: EngineDescriptor;
}
