/**
 * The shapes the host hands a runtime plug-in or gets back from it, named
 * for the host's code. runtime-kit exports what plug-ins write; these are
 * read off that contract (never declared again), so a change to the
 * contract reaches the host through the compiler.
 */
import type { EngineDescriptor, RuntimePlugin, RuntimeTarget } from '@rtbench/runtime-kit';

/** How the in-runtime entry is bundled for a runtime. */
export type BundleTarget = RuntimePlugin['bundle'];

/** What a plug-in's `resolve` asks of the host for a pinned npm runtime: its binary, and the list of its package's releases. */
export type RuntimeStore = NonNullable<Parameters<RuntimePlugin['resolve']>[1]>;

/** The list of each runtime package's releases, as the store gives it. */
export type ReleaseIndex = RuntimeStore['releases'];

/** Where a pinned npm runtime was found: rtbench's checkout (node_modules) or the cache of installs on demand. */
export type NpmInstallLocation = NonNullable<RuntimeTarget['npmLocation']>;

type ProcessPrograms = Extract<RuntimePlugin['programs'], { kind: 'process' }>;

/** How a plain program (a start-up program, a server) is started as a command. */
export type ProgramCommand = ReturnType<ProcessPrograms['command']>;

export type ProgramOptions = NonNullable<Parameters<ProcessPrograms['command']>[3]>;

/** An engine's warmup horizon (the lockstep measurer's steady rule). */
export type WarmupHorizon = NonNullable<EngineDescriptor['warmup']>;
