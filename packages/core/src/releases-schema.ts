/**
 * A release matrix's folder state (`releases.state`), declared once here with
 * its types inferred, as the run's schema is: the folder is input like a
 * saved run (edited by hand, restored from a cache, merged from shards), so
 * every reader checks it against this shape before trusting a field. The
 * decisions drawn from it are @rtbench/verdicts'; the folder itself is
 * @rtbench/releases'.
 */
import { z } from 'zod';
import { claimOutcomeSchema } from './claims-schema.ts';
import { finite } from './protocol-schema.ts';

export const RELEASES_SCHEMA = 'rtbench.releases';
export const RELEASES_STATE_VERSION = 1;

/**
 * A file the state names: a relative path of plain segments (no `..`, no
 * leading `/`), so that whatever the state says, it names a file inside the
 * folder.
 */
const fileInFolder = z
  .string()
  .refine((path) => path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part)), { message: 'must name a file inside the folder (a relative path without "..")' });

/** One runtime's releases on one suite. */
export const releaseTrackSchema = z.object({
  /** "node × json-reviver" (with flags: "node --jitless × json-reviver"). */
  key: z.string(),
  runtime: z.string(),
  /** Flags and environment every release runs with, as variant parts. */
  extra: z.array(z.string()),
  suite: z.string(),
  /** The range as typed: "node@25.8.0..node@26.1.0", "bun@latest~3". */
  range: z.string(),
  /** Every release the range holds, oldest first, before --every thins it. */
  listed: z.array(z.string()),
  /** The releases measured, oldest first (both ends always kept). */
  releases: z.array(z.string()),
});
export type ReleaseTrack = z.infer<typeof releaseTrackSchema>;

/** What must match for a folder's measurements to be reused: the same question, measured the same way. */
export const matrixIdentitySchema = z.object({
  /** The --filter patterns, joined as the plan joins them ('' for every case). */
  filter: z.string(),
  /** A change smaller than this is not one (0.01 = 1%). */
  threshold: finite.nonnegative().lt(1),
  /** Sampling time per process and set, in ms. */
  timePerSetMs: finite.positive(),
  /** Warmup floor per process and case, in ms. */
  warmupMs: finite.nonnegative(),
  /** --fixed-warmup: warmupMs was the whole warmup (absent when not asked, and in states saved before it). */
  fixedWarmup: z.literal(true).optional(),
  /** Sets of processes every window gets (each set holds one process per release of the window). */
  sets: z.number().int().min(1),
  /** Consecutive sets one process serves (the unit of an interval is the set of processes). */
  setsPerProcess: z.number().int().min(1),
  /** Most releases measured side by side in one set. */
  windowSize: z.number().int().min(2),
});
export type MatrixIdentity = z.infer<typeof matrixIdentitySchema>;

/** Releases measured together: a contiguous part of a track's releases, one process each per set. */
export const windowStateSchema = z.object({
  releases: z.array(z.string()).min(2),
  /** Run files in the folder (relative to it), in the order they were measured; each holds fresh sets of this window. */
  runs: z.array(fileInFolder),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const trackStateSchema = releaseTrackSchema.extend({ windows: z.array(windowStateSchema) });
export type TrackState = z.infer<typeof trackStateSchema>;

/**
 * One claims outcome on one release of a track, kept in the state so that a
 * redraw (which reads no claims run) still shows it.
 */
export const releaseClaimSchema = z.object({
  /** The track's key. */
  track: z.string(),
  /** The release the claim was checked on: a tag of the track. */
  release: z.string(),
  /**
   * Its sides with that release written as the runtime alone ("node",
   * "node --jitless", "node #2"; another release stays as it is, "node@24"):
   * the same check lines up across the releases.
   */
  sides: z.object({ subject: z.string(), other: z.string() }),
  /** The claims run: its id (a run given again replaces its outcomes), its file as given, when it started (the newest run's word is shown). */
  run: z.object({ id: z.string(), file: z.string(), startedAt: z.string() }),
  outcome: claimOutcomeSchema,
});
export type ReleaseClaim = z.infer<typeof releaseClaimSchema>;

/** A track as the command asked it, before sharding: what shards of one matrix must agree on. */
export const askedTrackSchema = releaseTrackSchema.pick({ key: true, range: true, suite: true });
export type AskedTrack = z.infer<typeof askedTrackSchema>;

export const matrixStateSchema = z.object({
  schema: z.literal(RELEASES_SCHEMA),
  version: z.literal(RELEASES_STATE_VERSION),
  identity: matrixIdentitySchema,
  /** The machines that measured its runs (each run records its host too); a step is paired inside a run's sets only. */
  machines: z.array(z.string()),
  /** --shard i/n this folder measured; absent: the whole matrix (or a merge of every shard). */
  shard: z
    .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
    .refine((s) => s.index <= s.count, { message: 'the shard index is beyond the shard count' })
    .optional(),
  /** Every track of the matrix as last asked, in order, before --shard dealt them: shards merge only when they agree on it. */
  asked: z.array(askedTrackSchema).optional(),
  /** A merged folder: the shard folders it was made from. */
  mergedFrom: z.array(z.string()).optional(),
  /** The tracks the last command asked (a folder's tracks follow its command). */
  tracks: z.array(trackStateSchema),
  /** Tracks measured before and no longer asked: kept apart (not drawn, not merged) so that asking one again continues it. */
  setAside: z.array(trackStateSchema).optional(),
  /** Claims outcomes on the tracks' releases, from the claims runs `--claims` named (absent: none given yet). */
  claims: z.array(releaseClaimSchema).optional(),
});
export type MatrixState = z.infer<typeof matrixStateSchema>;
