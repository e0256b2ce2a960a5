/**
 * Where a suite writes a module it generates in the run (cold-start's
 * bundles of a chosen size): the program cache's owner-only folder of them,
 * each named by its content (@rtbench/host program-cache.ts), so the same
 * module has the same path in every run and its bundle is reused.
 */
import { storeGeneratedModule } from '@rtbench/host/programs';

export interface GeneratedModules {
  /** Writes `source` (kept when the file still holds it) and returns its path, the same for the same source. */
  write(stem: string, source: string): string;
}

/** The generated modules of the program cache at `programDir`. */
export function generatedModules(programDir: string): GeneratedModules {
  return { write: (stem, source) => storeGeneratedModule(programDir, stem, source) };
}
