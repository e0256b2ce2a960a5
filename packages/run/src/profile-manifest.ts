/**
 * The profiles a run saved beside it, read back: where they are and their
 * manifest. Apart from the profiler (profiles.ts) so that showing a saved run
 * loads nothing that captures a profile (@rtbench/run/profile-manifest).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProfileManifest, PROFILE_MANIFEST_FILE, type ProfileManifest } from '@rtbench/core/profile-manifest';

/** `results/<run>.json` -> `results/<run>.profiles` */
export const profilesDir = (runPath: string): string => runPath.replace(/\.json(\.gz)?$/, '') + '.profiles';

/**
 * The profiles manifest beside a saved run, for its HTML report: undefined
 * when there is none; when it cannot be used (unreadable, not a manifest,
 * taken after another run), undefined and a one-line warning.
 */
export function loadProfileManifest(runPath: string, runId: string, warn: (line: string) => void): ProfileManifest | undefined {
  const file = join(profilesDir(runPath), PROFILE_MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  let manifest: ProfileManifest;
  try {
    manifest = parseProfileManifest(JSON.parse(readFileSync(file, 'utf8')), file);
  } catch (error) {
    warn(`the HTML report has no flame graphs: ${error instanceof SyntaxError ? `${file} is not JSON` : (error as Error).message}`);
    return undefined;
  }
  if (manifest.runId !== runId) {
    warn(`the HTML report has no flame graphs: ${file} was taken after run ${manifest.runId}, not this one (${runId})`);
    return undefined;
  }
  return manifest;
}
