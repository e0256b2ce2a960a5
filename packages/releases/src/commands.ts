import type { ReleaseTrack as Track } from '@rtbench/verdicts';
/**
 * The commands that reproduce a change point, as a user pastes them: the
 * direct paired comparison of the two releases on the one case, and, when
 * --every skipped releases between them, the bisect that finds the step.
 */

/** A word for a POSIX shell: as it is when it holds nothing the shell reads, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Control characters (line breaks, escapes) and bidi controls. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A --filter that picks exactly this case: its id as an anchored regex
 * (commas, which split a filter, written \x2c), on one line whatever the id
 * holds (a control character written \x{…}, which the filter's RE2 reads back).
 */
function caseFilter(caseId: string): string {
  return `/^${caseId.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(/,/g, '\\x2c').replace(UNPRINTABLE, (ch) => `\\x{${ch.charCodeAt(0).toString(16)}}`)}$/`;
}

/** "node@26.0.0 --jitless": a release as a variant of the track. */
export function releaseVariantText(track: Pick<Track, 'runtime' | 'extra'>, tag: string): string {
  return [`${track.runtime}@${tag}`, ...track.extra].join(' ');
}

export function compareCommand(track: Pick<Track, 'runtime' | 'extra' | 'suite'>, older: string, newer: string, caseId: string): string {
  return ['rtbench bench', shellWord(track.suite), '--compare', shellWord(releaseVariantText(track, older)), shellWord(releaseVariantText(track, newer)), '--filter', shellWord(caseFilter(caseId))].join(' ');
}

export function bisectCommand(track: Pick<Track, 'runtime' | 'extra' | 'suite'>, older: string, newer: string, caseId: string): string {
  const range = [`${track.runtime}@${older}..${track.runtime}@${newer}`, ...track.extra].join(' ');
  return ['rtbench bisect', shellWord(range), shellWord(track.suite), '--filter', shellWord(caseFilter(caseId))].join(' ');
}
