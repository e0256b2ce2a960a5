/**
 * The files a campaign's state names, read as untrusted input: a state is
 * edited, restored from a cache or copied, so a name in it is read only when
 * it lies inside the campaign's folder, links resolved (a name that leads
 * elsewhere is refused in one line, without a byte of its file read), and a
 * run is read as `report` reads a saved run (its schema, its consistency).
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SavedRun } from '@rtbench/verdicts';
import { loadSavedRun } from '@rtbench/saved-runs';

/** The path of `file` in `dir`; refused (by `refused`, naming the state file) when it, or a link on the way, leads outside the folder. */
export function campaignFilePath(dir: string, file: string, stateFile: string, refused: (message: string) => Error): string {
  const path = join(dir, file);
  const inside = (p: string): boolean => {
    const rel = relative(realpathSync(dir), p);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  };
  if (!inside(join(realpathSync(dir), file)) || (existsSync(path) && !inside(realpathSync(path)))) {
    throw refused(`${join(dir, stateFile)} names ${JSON.stringify(file)}, which leads outside the folder ${dir}; it reads only the files in its folder`);
  }
  return path;
}

/** A run the state names, read from inside the folder as a saved run; undefined when its file is not there (a run stopped before its first save). */
export function readCampaignRun(dir: string, file: string, stateFile: string, refused: (message: string) => Error): SavedRun | undefined {
  const path = campaignFilePath(dir, file, stateFile, refused);
  return existsSync(path) ? loadSavedRun(path) : undefined;
}
