/**
 * The shapes a release matrix is made of: a track (one runtime's releases on
 * one suite, never split across machines), the windows of adjacent releases
 * measured together as variants of one design, the state its folder keeps.
 * They are declared once, as the schema the folder's state is checked
 * against (@rtbench/core/releases-schema). What the analysis decides (steps,
 * change points) is shaped in @rtbench/verdicts (release-matrix.ts); the
 * view that carries it, in @rtbench/report (views/releases.ts).
 */
export type { AskedTrack, MatrixIdentity, MatrixState, ReleaseClaim, TrackState, WindowState } from '@rtbench/core/releases-schema';
