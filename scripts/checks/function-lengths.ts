/**
 * How long each function is, as a reader meets it: every line from its start
 * to its end, nested functions included (function declarations, methods,
 * arrow functions and function expressions, read with TypeScript's parser).
 * Read by scripts/checks/structure-targets.ts, which holds packages/ to a length.
 * A check run in `pnpm test`: test/function-lengths.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import type * as TS from 'typescript';
import ts from './typescript.ts';
import type { SourceText } from './cpu-view.ts';

/** The longest a function under packages/ may be: one a reader can hold. */
export const MOST_FUNCTION_LINES = 120;

/** One function and its length in lines. */
export interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const isFunction = (node: TS.Node): node is TS.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node);

/** A function's name as a reader would search for it: its own, or the variable or property it is assigned to. */
function nameOf(node: TS.FunctionLikeDeclaration, source: TS.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) return parent.name.getText(source);
  return '(anonymous)';
}

/** Every function in `file` with its length in lines. */
export function functionLengths(file: SourceText): FunctionLength[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: TS.Node): void => {
    if (isFunction(node) && node.body) {
      const line = lineOf(node.getStart(source));
      out.push({ file: file.path, line, name: nameOf(node, source), lines: lineOf(node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The functions in `files` longer than `most` lines, longest first. */
export function longFunctions(files: readonly SourceText[], most: number = MOST_FUNCTION_LINES): FunctionLength[] {
  return files.flatMap(functionLengths).filter((f) => f.lines > most).sort((a, b) => b.lines - a.lines);
}
