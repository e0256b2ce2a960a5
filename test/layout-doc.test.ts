/**
 * docs/layout.md's "asked by" column is read from the workspace's package.json
 * files, not kept by hand: for each row naming a package folder, the cell must
 * list exactly the workspace packages that declare it as a dependency. A
 * plug-in (runners/<runtime>) or a suite (bench/<suite>) is named by its
 * group. No process is started.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..');
const GROUPS: Readonly<Record<string, string>> = { packages: '', runners: 'runners/<runtime>', bench: 'bench/<suite>' };

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface WorkspacePackage {
  /** How docs/layout.md names it: `run`, `runners/<runtime>`, `bench/<suite>`. */
  shown: string;
  /** Its folder's unit in the table: `packages/run`, `runners/<runtime>`. */
  unit: string;
  manifest: Manifest;
}

function workspacePackages(): WorkspacePackage[] {
  return Object.entries(GROUPS).flatMap(([top, group]) =>
    readdirSync(join(repoRoot, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        let text: string;
        try {
          text = readFileSync(join(repoRoot, top, entry.name, 'package.json'), 'utf8');
        } catch {
          return [];
        }
        const shown = group || entry.name;
        return [{ shown, unit: group || `${top}/${entry.name}`, manifest: JSON.parse(text) as Manifest }];
      }),
  );
}

/** Who declares each package (by its manifest name) a dependency, as the table names them, sorted. */
function askedBy(packages: readonly WorkspacePackage[]): Map<string, string[]> {
  const byName = new Map<string, Set<string>>();
  for (const p of packages) {
    for (const dep of Object.keys({ ...p.manifest.dependencies, ...p.manifest.devDependencies })) {
      if (!byName.has(dep)) byName.set(dep, new Set());
      byName.get(dep)!.add(p.shown);
    }
  }
  return new Map([...byName].map(([name, who]) => [name, [...who].sort()]));
}

/** The rows of the "Who owns what" table: unit (without backticks) → the names in backticks of its "asked by" cell. */
function tableRows(doc: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1]!.startsWith('`')) continue;
    const unit = cells[1]!.replaceAll('`', '');
    rows.set(unit, [...cells[3]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort());
  }
  return rows;
}

describe('docs/layout.md', () => {
  const packages = workspacePackages();
  const asked = askedBy(packages);
  const rows = tableRows(readFileSync(join(repoRoot, 'docs', 'layout.md'), 'utf8'));
  const units = [...new Map(packages.filter((p) => p.unit !== 'bench/<suite>').map((p) => [p.unit, p])).values()];

  it('has a row for every package and plug-in group', () => {
    expect(units.length).toBeGreaterThan(10);
    expect(units.map((u) => u.unit).filter((unit) => !rows.has(unit))).toEqual([]);
  });

  it.each(units.map((u) => [u.unit, u] as const))('%s: "asked by" lists the packages that depend on it', (unit, p) => {
    const names = p.unit === 'runners/<runtime>' ? packages.filter((q) => q.unit === unit).map((q) => q.manifest.name) : [p.manifest.name];
    const expected = [...new Set(names.flatMap((name) => asked.get(name) ?? []))].filter((who) => who !== p.shown).sort();
    expect(rows.get(unit), `write the cell as: ${expected.map((who) => `\`${who}\``).join(', ')}`).toEqual(expected);
  });
});
