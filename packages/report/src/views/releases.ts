/**
 * A release matrix as a view (plain data): per track (one runtime's releases
 * on one suite) each case's adjacent steps with their paired verdicts, its
 * time relative to the track's first release, and the change points with the
 * commands that reproduce them, and the claims' words on the releases a
 * claims run checked. Built by @rtbench/releases from a matrix's
 * folder; a kind of view like the others, drawn through the reporter map
 * (reporters/releases.ts: terminal, markdown, json, the page).
 */
import type { ChangePoint, TrackAnalysis } from '@rtbench/verdicts';

export interface ReleaseMatrixView {
  kind: 'releases';
  /** A change smaller than this is not one (0.01 = 1%). */
  threshold: number;
  tracks: TrackAnalysis[];
  changePoints: ChangePoint[];
  /** Steps × cases judged together (the m of the false discovery rate). */
  comparisons: number;
  /** The level every interval is read at (1 − R·α/m). */
  confidence: number;
  /** The folder the matrix lives in. */
  folder: string;
  /** What reading its runs found worth a warning (a run whose statistics its samples no longer give: the samples are used). */
  notes?: string[];
}
