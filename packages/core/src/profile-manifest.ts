/**
 * `<run>.profiles/profiles.json`: what `--profile` took for a run, beside its
 * `.cpuprofile` (and, with `--profile alloc`, `.heapprofile`) files. Written by the run's profile phase (packages/run/src/profiles.ts),
 * read back when an HTML report is made for the run, which draws the call
 * trees as flame graphs. Declared here, with zod, because three packages
 * share it: @rtbench/profile builds the trees, the CLI writes and validates
 * the file, @rtbench/report draws it (and reads no files itself).
 */
import { z } from 'zod';
import { PROFILE_CATEGORIES, type CallTree, type CallTreeNode, type CallTreeUnit } from './call-tree.ts';

export * from './call-tree.ts';

export const PROFILE_MANIFEST_FILE = 'profiles.json';
export const PROFILE_MANIFEST_VERSION = 1;

const ms = z.number().finite().nonnegative();
// Shares are fractions; a rounding error above 1 is let through.
const share = z.number().finite().min(0).max(1 + 1e-9);
const category = z.enum(PROFILE_CATEGORIES);

function callTreeSchemas<U extends CallTreeUnit>(unit: U): { node: z.ZodType<CallTreeNode<U>>; tree: z.ZodType<CallTree<U>> } {
  const node: z.ZodType<CallTreeNode<U>> = z.lazy(() =>
    z.object({
      name: z.string(),
      location: z.string().optional(),
      category,
      [`self${unit}`]: ms,
      [`total${unit}`]: ms,
      [`folded${unit}`]: ms.optional(),
      children: z.array(node),
    }),
  ) as unknown as z.ZodType<CallTreeNode<U>>;
  const tree = z.object({
    [`total${unit}`]: ms,
    samples: z.number().int().nonnegative(),
    minShare: share,
    nodes: z.number().int().positive(),
    root: node,
  }) as unknown as z.ZodType<CallTree<U>>;
  return { node, tree };
}

const cpuTree = callTreeSchemas('Ms');
const allocTree = callTreeSchemas('Bytes');
export const callTreeNodeSchema = cpuTree.node;
export const callTreeSchema = cpuTree.tree;
export const allocationTreeNodeSchema = allocTree.node;
export const allocationTreeSchema = allocTree.tree;

export const categorySharesSchema = z.record(category, z.object({ ms, share }));

/** What every entry of the manifest says: which case × variant, and its profile's file or why there is none. */
const entryFields = {
  caseId: z.string(),
  variantId: z.string(),
  status: z.enum(['ok', 'unavailable', 'unsupported', 'failed']),
  /** The profile's name inside the profiles folder (`.cpuprofile`, `.heapprofile`; ok only). */
  file: z.string().optional(),
  /** Why there is no profile. */
  reason: z.string().optional(),
  /** How it was taken, e.g. "node --cpu-prof (V8 CpuProfiler); window: markers". */
  method: z.string().optional(),
};

/** One case × variant's profile, or why there is none. */
export const profileEntrySchema = z.object({
  ...entryFields,
  /** How the sampling phase was found (cpuprofile.ts SamplingWindow). */
  window: z.object({ method: z.enum(['markers', 'sampling-only', 'none']), kept: z.number().int().nonnegative(), total: z.number().int().nonnegative(), windowMs: ms, profileMs: ms }).optional(),
  byCategory: categorySharesSchema.optional(),
  tree: callTreeSchema.optional(),
  /** Native profiles (`--profile native`): what perf could resolve, and the samples behind the shares. */
  resolution: z
    .object({
      /** The software clock's sampling period, µs. */
      periodUs: z.number().finite().positive(),
      /** Samples of the profiled thread in the window (each share is a count of these). */
      samples: z.number().int().nonnegative(),
      /** Samples of the process's other threads (compiler, GC helpers, I/O) in the window, not in the tree. */
      otherThreadSamples: z.number().int().nonnegative(),
      /** Share of the thread's samples whose innermost frame had no symbol (grouped by library). */
      unresolvedShare: share,
      /** What this runtime's profile can resolve (runners' nativeProfile.resolves). */
      note: z.string(),
    })
    .optional(),
});

/** A function whose share of self time moved between the baseline and another arm (diffProfiles). */
export const profileMoverSchema = z.object({
  name: z.string(),
  location: z.string().optional(),
  category,
  /** Self-time shares (0..1) in the baseline and in the other arm. */
  aShare: share,
  bShare: share,
  delta: z.number().finite(),
});

/** A comparison: where the time moved from the baseline to one other arm, for one case. */
export const profileDiffSchema = z.object({
  caseId: z.string(),
  baseline: z.string(),
  candidate: z.string(),
  /** The functions that moved most, by |delta|. */
  movers: z.array(profileMoverSchema),
  byCategory: z.record(category, z.object({ aShare: share, bShare: share, delta: z.number().finite() })),
});

const bytes = z.number().finite().nonnegative();

/**
 * How an allocation profile's window was held. 'lockstep': the host started
 * the profiler after warmup and stopped it after the last of `samples`
 * samples (`ops` calls of the case, each sample its timed batch and an
 * untimed quarter batch before it); `warmupBytes`: bytes attributed to the
 * harness's warmup frames, 0 when the window held.
 */
const allocationWindowSchema = z.object({ method: z.enum(['lockstep']), samples: z.number().int().nonnegative(), ops: bytes, warmupBytes: bytes });
export type AllocationWindow = z.infer<typeof allocationWindowSchema>;
/** The window held by a lockstep job (the one method today). */
export const LOCKSTEP_WINDOW: AllocationWindow['method'] = 'lockstep';

/**
 * One case × variant's allocation profile (`--profile alloc`: V8's sampling
 * heap profiler over the inspector, a `.heapprofile`), or why there is none.
 */
export const allocationEntrySchema = z.object({
  ...entryFields,
  window: allocationWindowSchema.optional(),
  /** Bytes allocated in the window (V8's estimate from its samples), and per call of the case. */
  totalBytes: bytes.optional(),
  bytesPerOp: bytes.optional(),
  byCategory: z.record(category, z.object({ bytes, share })).optional(),
  /** The top functions by self bytes. */
  top: z.array(z.object({ name: z.string(), location: z.string().optional(), category, selfBytes: bytes, selfShare: share, selfBytesPerOp: bytes.optional() })).optional(),
  /** The heap profile's call tree by allocated bytes, for the page's allocation icicles; absent from manifests written before it existed. */
  tree: allocationTreeSchema.optional(),
});

export const profileManifestSchema = z.object({
  version: z.literal(PROFILE_MANIFEST_VERSION),
  /** The run these profiles were taken after (its `id`): a folder left beside another run is not shown with it. */
  runId: z.string(),
  profiles: z.array(profileEntrySchema),
  diffs: z.array(profileDiffSchema),
  /** Allocation profiles (`--profile alloc`); absent from manifests written before they existed. */
  allocations: z.array(allocationEntrySchema).optional(),
  /** For a comparison: where the allocated bytes moved (shares of each arm's bytes, as diffs' of time). */
  allocationDiffs: z.array(profileDiffSchema).optional(),
  /** Native profiles (`--profile native`: perf, the engine's own C++ frames); absent from manifests written before them. */
  native: z.array(profileEntrySchema).optional(),
  /** For a comparison: where the time moved in the native profiles. */
  nativeDiffs: z.array(profileDiffSchema).optional(),
});

export type ProfileEntry = z.infer<typeof profileEntrySchema>;
export type AllocationEntry = z.infer<typeof allocationEntrySchema>;
export type ProfileMover = z.infer<typeof profileMoverSchema>;
export type ProfileDiffEntry = z.infer<typeof profileDiffSchema>;
export type ProfileManifest = z.infer<typeof profileManifestSchema>;

/** Checks a parsed profiles.json; throws a one-line error naming the file and the first problem. */
export function parseProfileManifest(value: unknown, file: string): ProfileManifest {
  const parsed = profileManifestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${file} is not an rtbench profiles manifest: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}`);
}
