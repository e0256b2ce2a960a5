/** JavaScriptCore, bun's engine, as rtbench knows it (runtime-kit engine.ts). */
import type { EngineDescriptor } from '@rtbench/runtime-kit';

export const JSC_ENGINE: EngineDescriptor = {
  id: 'jsc',
  displayName: 'JavaScriptCore',
  shortName: 'JSC',
  // JSC's measured tier-up steps (docs/measurements/harness-figures.md, "Tier-up by calls"): it tiers by execution
  // counts too, so the same horizon in calls as V8's, and a shorter floor.
  warmup: { minMs: 20, tierUpCalls: 30_000, tierUpWithinMs: 1_500, maxMs: 3_000 },
  counting: {
    // No concurrent JIT or GC threads; WeakRandom (which JSC seeds per VM and uses in its own structures) seeded alike
    // in every process: without it counts differ between processes (docs/instructions.md).
    determinismFlags: ['--useConcurrentJIT=false', '--useConcurrentGC=false', '--forceWeakRandomSeed=true', '--forcedWeakRandomSeed=7'],
    threshold: 0.01,
    // JSC draws OS randomness (getrandom) no flag fixes.
    fixedRandom: true,
  },
  nativeSymbols: /^(JSC::|WTF::|Inspector::|bmalloc::|bmalloc_|pas_|llint_|op_|vmEntryTo|operationGet|operation[A-Z])/,
  gcSymbols: /^JSC::(Heap::(collect\w*|run\w*Phase|sweep\w*|finalize\w*|stopThePeriphery|resumeThePeriphery)|SlotVisitor|MarkedBlock::Handle::sweep|MarkedSpace::sweep|MarkingConstraint\w*|\w*GCActivityCallback)/,
};
