/**
 * The house's layout targets (scripts/checks/structure-targets.ts): which unit may
 * name a runtime, an engine, a measurer or a format, which package may import
 * which, where CSV keys are declared and where report asks a view's kind,
 * no dates in source comments, runtime-kit exporting only what plug-ins
 * import, no runtime's global named outside its plug-in, and where the CLI
 * declares its commands. Each target lists what breaks it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.ts';

describe('the layout targets', () => {
  it('are all met, and the script names every target it checks apart', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/checks/structure-targets.ts'), '--json'], { cwd: repoRoot, encoding: 'utf8' });
    // The script's own list of targets, as it checked them: a target added there is checked here with no edit.
    const report = JSON.parse(r.stdout) as { targets: Array<{ name: string; findings: unknown[] }>; comments: { commentLines: number; lines: number } };
    expect(report.targets.length).toBeGreaterThan(0);
    expect(new Set(report.targets.map((t) => t.name)).size).toBe(report.targets.length);
    expect(report.targets.filter((t) => t.findings.length > 0)).toEqual([]);
    expect(r.status).toBe(0);
    expect(report.comments.commentLines).toBeGreaterThan(0);
    expect(report.comments.commentLines).toBeLessThan(report.comments.lines);
  });
});
