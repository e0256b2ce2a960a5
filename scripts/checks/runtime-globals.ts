/**
 * No code under packages/ names a runtime's own global (`Deno`, `Bun`): an
 * identifier, a regular expression or words in a string, not a comment.
 * Code that runs in a runtime and reads its global is the plug-in's (its
 * entry, the fetch server it declares). Read by
 * scripts/checks/structure-targets.ts.
 * A check run in `pnpm test`: test/runtime-globals.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import type * as TS from 'typescript';
import ts from './typescript.ts';
import type { SourceText } from './cpu-view.ts';
import { stringLiterals } from './source-syntax.ts';

/** The globals a runtime defines for its own API. */
const RUNTIME_GLOBALS = /\b(Deno|Bun)\b/;
/** A brought file's format named by the API its files call (`Deno.bench`), not the runtime. */
const FORMAT_API = /\bDeno\.bench\b/g;
/** Where a runtime's global may be named: the registry, and files that must word one, each with why. */
const ALLOWED_IN = 'packages/runtime-registry/';
const ALLOWED: Readonly<Record<string, string>> = {
  'packages/measurer-records/src/lockstep.ts': 'its method line: a run saved without one is re-reported with these words, byte for byte',
  'packages/suite-loader/src/deno-destructured.ts': "a Deno.bench file that takes bench out of the global by destructuring: the bundler rewrites that destructuring, the format's API",
};

/** Whether words name a runtime's global (a format's API left out). */
const namesGlobal = (text: string): boolean => RUNTIME_GLOBALS.test(text.replace(FORMAT_API, ''));

/** Identifiers and regular expressions that name a runtime's global, with their lines (a line is looked up only for those: for every identifier it was most of the check's time). */
function namesInCode(source: TS.SourceFile): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  const visit = (node: TS.Node): void => {
    if ((ts.isIdentifier(node) || ts.isRegularExpressionLiteral(node)) && namesGlobal(node.text)) out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Each place in `files` (sources under packages/, paths from the repository's root) that names a runtime's global; `parse` may give a tree already parsed. */
export function runtimeGlobalFindings(files: readonly SourceText[], parse: (file: SourceText) => TS.SourceFile = (f) => ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true)): Array<{ file: string; line: number; text: string }> {
  return files
    .filter((f) => !f.path.startsWith(ALLOWED_IN) && !(f.path in ALLOWED))
    .flatMap((f) => {
      const source = parse(f);
      return [...stringLiterals(source).filter((s) => namesGlobal(s.text)), ...namesInCode(source)].map((s) => ({ file: f.path, line: s.line, text: s.text }));
    });
}
