/**
 * What a suite imports is a short list, written in docs/writing-a-suite.md:
 * the `rtbench` module (the package users install) hands on exactly those
 * names, each a value or a type, and nothing of the harness's own (those are
 * behind @rtbench/core's named subpaths).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.ts';

const DOC = 'docs/writing-a-suite.md';
const HEADING = '## What `rtbench` exports';

/** The names the doc's list gives: every identifier in backticks on its bullet lines. */
function documentedFace(doc: string): string[] {
  const section = doc.slice(doc.indexOf(HEADING) + HEADING.length).split('\n## ')[0]!;
  const list = section.slice(section.indexOf('\n- '), section.indexOf('\n\n', section.indexOf('\n- ')));
  return [...list.matchAll(/`([A-Za-z]\w*)`/g)].map((m) => m[1]!).sort();
}

/** The names a module hands on, `export *` followed, as TypeScript resolves the package users install (no lib: exports need none). */
function moduleFace(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, noEmit: true, types: [], noLib: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(symbol).map((s) => s.name).sort();
}

describe("the rtbench module's face", () => {
  it('hands on exactly the names the doc lists', () => {
    const documented = documentedFace(readFileSync(join(repoRoot, DOC), 'utf8'));
    expect(documented).toContain('requestSuite');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'packages/cli/package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
    expect(pkg.name).toBe('rtbench');
    expect(Object.keys(pkg.exports)).toEqual(['.']);
    expect(moduleFace(join(repoRoot, 'packages/cli', pkg.exports['.']!))).toEqual(documented);
  });

  it('a name the doc does not list is found', () => {
    expect(documentedFace(`${HEADING}\n\nintro \`rtbench\`\n\n- a: \`suite\`; types \`Params\`\n  \`digest\`\n\nafter \`caseId\`\n`)).toEqual(['Params', 'digest', 'suite']);
  });
});
