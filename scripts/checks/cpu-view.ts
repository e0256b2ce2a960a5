/**
 * CPU per request has one view file. Within report's sources only
 * views/cpu-per-request.ts imports what the figures are computed from:
 * core's declaration of CPU per request (every name its file exports) and
 * stats' distribution of requests. Every other view, layout and page reads
 * the figures from that view, so a second home for them (a table of its
 * own, a load table that takes the medians itself) is a finding. Read by
 * scripts/checks/structure-targets.ts.
 * A check run in `pnpm test`: test/cpu-view.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import ts from './typescript.ts';
import { importStatements } from './source-syntax.ts';

/** The view file, and core's file that declares the figure (paths from the repository's root). */
export const CPU_VIEW = 'packages/report/src/views/cpu-per-request.ts';
export const CPU_DECLARATION = 'packages/core/src/cpu-per-request.ts';
/** Stats' distribution of a process's requests, which the view's figures are computed with. */
const COMPUTED_WITH = ['requestDistribution'];

export interface SourceText {
  /** From the repository's root. */
  path: string;
  text: string;
}

/** Each name a file imports by name, with its line. */
function importedNames(file: SourceText): Array<{ name: string; line: number }> {
  return importStatements(ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true)).flatMap((s) => s.named);
}

/** Files of report other than the view that import a name CPU per request is computed from (`declared`: the declaration file's exports). */
export function cpuViewFindings(reportFiles: readonly SourceText[], declared: readonly string[]): Array<{ file: string; line: number; text: string }> {
  const computedFrom = new Set([...declared, ...COMPUTED_WITH]);
  return reportFiles
    .filter((f) => f.path !== CPU_VIEW)
    .flatMap((f) => importedNames(f).flatMap(({ name, line }) => (computedFrom.has(name) ? [{ file: f.path, line, text: `imports ${name}: CPU per request is computed in ${CPU_VIEW} only` }] : [])));
}
