/**
 * CPU per request is computed in one view file (scripts/checks/cpu-view.ts, read by
 * the structure targets): a file of report that imports core's declaration
 * of the figure or stats' distribution of requests, other than the view, is
 * a finding. Planted here; the tree itself is checked by
 * test/structure-targets.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CPU_DECLARATION, CPU_VIEW, cpuViewFindings } from '../scripts/checks/cpu-view.ts';
import { repoRoot } from './helpers/cli.ts';

const DECLARED = ['CPU_THREADS', 'CpuSample', 'loadCpuThreads', 'requestCpuThreads', 'CpuPerRequestFigure'];
const view = { path: CPU_VIEW, text: readFileSync(join(repoRoot, CPU_VIEW), 'utf8') };

describe('one view file for CPU per request', () => {
  it('names the declaration the check reads, and the view imports from it', () => {
    const declaration = readFileSync(join(repoRoot, CPU_DECLARATION), 'utf8');
    for (const name of DECLARED) expect(declaration).toMatch(new RegExp(`export (const|function|interface|type) ${name}\\b`));
    expect(cpuViewFindings([view], DECLARED)).toEqual([]);
  });

  it('a load table that reads the CPU cases itself is a finding, at its line', () => {
    const load = { path: 'packages/report/src/views/load.ts', text: "import { caseId } from '@rtbench/core';\nimport { loadCpuThreads as isCpu } from '@rtbench/core';\n" };
    expect(cpuViewFindings([view, load], DECLARED)).toEqual([{ file: load.path, line: 2, text: `imports loadCpuThreads: CPU per request is computed in ${CPU_VIEW} only` }]);
  });

  it("a second view of the requests' distribution is a finding; one that reads the view is not", () => {
    const second = { path: 'packages/report/src/views/requests.ts', text: "import { median, requestDistribution } from '@rtbench/stats';\n" };
    const reader = { path: 'packages/report/src/reporters/cpu-per-request.ts', text: "import { cpuMedian, type CpuPerRequestSection } from '../views/cpu-per-request.ts';\n" };
    expect(cpuViewFindings([second, reader], DECLARED).map((f) => f.file)).toEqual([second.path]);
  });
});
