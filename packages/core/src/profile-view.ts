/**
 * The profiles section (`--profile`) as plain data: @rtbench/profile builds
 * its tables from a profile's summary, the run's profile phase lists them in
 * the order it took them, and each reporter of @rtbench/report draws them.
 * Declared here because those three packages share it.
 */

/** A profile's top functions, or where a comparison's shares moved: a summary line over a table. */
export interface ProfileTable {
  kind: 'table';
  /** The case and variant. */
  title?: string;
  /** Under the title, e.g. how the sampling phase was found. */
  note?: string;
  /** The line above the table: the total and its split by category, or which categories moved. */
  summary: string;
  columns: readonly ProfileColumn[];
  rows: readonly (readonly string[])[];
}

export interface ProfileColumn {
  head: string;
  /** Figures are right-aligned; names and places are not. */
  right?: boolean;
}

/** One kind of profile's first line: what it is, where its files went and what opens them. */
export interface ProfileHeading {
  kind: 'heading';
  /** "CPU profiles". */
  what: string;
  dir: string;
  /** "open a .cpuprofile in Chrome DevTools or speedscope". */
  opens: string;
}

/** A case × variant without a profile, and why. */
export interface ProfileMissing {
  kind: 'missing';
  text: string;
}

export type ProfileBlock = ProfileHeading | ProfileTable | ProfileMissing;

/** What the profile phase leaves to print, in the order it was taken. */
export interface ProfileSection {
  blocks: readonly ProfileBlock[];
}
