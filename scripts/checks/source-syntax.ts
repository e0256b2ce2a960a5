/** Source files read with TypeScript's parser, each parsed once: their comments and the names they import (shared by the checks). */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type * as TS from 'typescript';
import ts from './typescript.ts';

/** Every TypeScript source under `dir` (not declarations, not node_modules). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const parsed = new Map<string, TS.SourceFile>();

/** A file's syntax tree, parsed once however many checks read it. */
export function parseSource(file: string): TS.SourceFile {
  let source = parsed.get(file);
  if (!source) parsed.set(file, (source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)));
  return source;
}

/** One import statement: its module, each name it takes by name, and whether it takes more than it names. */
export interface ImportStatement {
  spec: string;
  /** Each name in `{ … }` as the module exports it (before any `as`), with its line. */
  named: Array<{ name: string; line: number }>;
  /** `* as x`, a default binding, or a bare `import 'x'` (what it takes cannot be listed); undefined when it takes only `named`. */
  whole: 'namespace' | 'default' | 'bare' | undefined;
}

/** A file's top-level import statements (types included), in order. */
export function importStatements(source: TS.SourceFile): ImportStatement[] {
  const out: ImportStatement[] = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    const clause = node.importClause;
    const bindings = clause?.namedBindings;
    const named = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => ({ name: (e.propertyName ?? e.name).text, line: source.getLineAndCharacterOfPosition(e.getStart()).line + 1 })) : [];
    const whole = !clause ? 'bare' : bindings && ts.isNamespaceImport(bindings) ? 'namespace' : clause.name ? 'default' : undefined;
    out.push({ spec: node.moduleSpecifier.text, named, whole });
  }
  return out;
}

/** Each module a file names: import and export declarations, and import() of a literal. */
export function moduleSpecifiers(file: string): string[] {
  const out: string[] = [];
  const visit = (node: TS.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(parseSource(file));
  return out;
}

/** Every comment with the line it starts on, from the ranges the parser attaches to nodes (a `//` inside a string or regex is not one). */
export function commentRanges(source: TS.SourceFile): Array<{ text: string; line: number }> {
  const text = source.getFullText();
  const seen = new Set<number>();
  const out: Array<{ text: string; line: number }> = [];
  const take = (ranges: TS.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ text: text.slice(r.pos, r.end), line: source.getLineAndCharacterOfPosition(r.pos).line + 1 });
    }
  };
  const visit = (node: TS.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return out.sort((a, b) => a.line - b.line);
}

/** Each file's string literals, found once however many checks read them (the walk and its line lookups were a check's time each). */
const literalsOf = new WeakMap<TS.SourceFile, Array<{ text: string; line: number }>>();

/** Every string literal's text (template pieces included) with its line. */
export function stringLiterals(source: TS.SourceFile): ReadonlyArray<{ text: string; line: number }> {
  const known = literalsOf.get(source);
  if (known) return known;
  const out: Array<{ text: string; line: number }> = [];
  literalsOf.set(source, out);
  const visit = (node: TS.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      // Import specifiers name modules, not runtimes.
      if (!(ts.isStringLiteral(node) && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isExternalModuleReference(node.parent)))) {
        out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
