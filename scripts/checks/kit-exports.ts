/**
 * runtime-kit is what a runtime plug-in is written against, so every name it
 * exports must be one a plug-in imports: a name only the host uses belongs to
 * the package that owns its idea (host, run, runtime-registry, process).
 * The plug-ins are runners/*\/src and the test plug-ins under test/fixtures/
 * (a fifth runtime, a runtime with releases), which are written as an outside
 * plug-in would be. Read by scripts/checks/structure-targets.ts.
 * A check run in `pnpm test`: test/kit-exports.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as TS from 'typescript';
import ts from './typescript.ts';
import { importStatements, parseSource, sourceFiles } from './source-syntax.ts';

const KIT = '@rtbench/runtime-kit';

/** The names a module exports: each `export { … }` name, each exported declaration, and what `export *` hands on. */
export function exportedNames(file: string): string[] {
  const names: string[] = [];
  for (const node of parseSource(file).statements) {
    if (ts.isExportDeclaration(node)) {
      if (node.exportClause && ts.isNamedExports(node.exportClause)) names.push(...node.exportClause.elements.map((e) => e.name.text));
      // A module of the package's own is followed; another package handed on whole (`export * from '@rtbench/core'`) is its face, not this one's.
      else if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
        names.push(...exportedNames(join(file, '..', node.moduleSpecifier.text)));
      }
    } else if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      if (ts.isVariableStatement(node)) names.push(...node.declarationList.declarations.map((d) => d.name.getText()));
      else if ('name' in node && node.name && ts.isIdentifier(node.name as TS.Node)) names.push((node.name as TS.Identifier).text);
    }
  }
  return names;
}

/** The names a file imports from runtime-kit (types included); 'all' for a namespace import. */
function kitImports(file: string): string[] | 'all' {
  // An import from the kit names it: a file that never does is not parsed.
  if (!readFileSync(file, 'utf8').includes(KIT)) return [];
  const fromKit = importStatements(parseSource(file)).filter((s) => s.spec === KIT);
  return fromKit.some((s) => s.whole === 'namespace') ? 'all' : fromKit.flatMap((s) => s.named.map((n) => n.name));
}

/** The plug-ins' source files under `root`: runners/*\/src and test/fixtures/. */
export function pluginFiles(root: string): string[] {
  const runners = join(root, 'runners');
  const inRunners = existsSync(runners) ? readdirSync(runners).flatMap((name) => sourceFiles(join(runners, name, 'src'))) : [];
  return [...inRunners, ...sourceFiles(join(root, 'test', 'fixtures'))];
}

/** The names runtime-kit exports that no plug-in imports, in the order exported. */
export function kitExportsNoPluginUses(root: string): string[] {
  const used = new Set<string>();
  for (const file of pluginFiles(root)) {
    const names = kitImports(file);
    if (names === 'all') return [];
    for (const n of names) used.add(n);
  }
  return exportedNames(join(root, 'packages', 'runtime-kit', 'src', 'index.ts')).filter((n) => !used.has(n));
}
