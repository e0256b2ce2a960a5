/**
 * Per-matrix false change points (docs/measurements/releases.md): `n`
 * release matrices in which every "release" is the same binary, each counted
 * as a matrix with or without a change point. The releases are versions of a
 * package on a registry of the script's own on 127.0.0.1
 * (test/fixtures/release-runtime), each one a script that starts this
 * Node.js unchanged; the matrix is `rtbench releases` with its defaults
 * (sets, threshold, false discovery rate over the whole matrix) in a fresh
 * folder each time.
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/releases/releases-false-changes.ts 20 [--releases 4] [suite] [-- releases args]
 *
 * Prints one line per matrix (its change points, wall time, load) and the
 * count of matrices with any change point, with its binomial 95% upper bound.
 */
import { join } from 'node:path';
import { cacheDir, repoRoot } from '@rtbench/suite-loader';
import { runCliAsync } from '../../../test/helpers/cli.ts';
import { MATRIX_PACKAGE } from '../../../test/fixtures/release-runtime/matrix-plugin.ts';
import { startReleaseRegistry } from '../../../test/fixtures/release-runtime/registry.ts';
import { loadText, machineSpeedText } from '../../lib.ts';


/** The one-sided 95% upper bound on a rate after `k` of `n` (Clopper–Pearson, by bisection on the binomial tail). */
function upperBound(k: number, n: number): number {
  const tail = (p: number): number => {
    let sum = 0;
    let term = (1 - p) ** n;
    for (let i = 0; i <= k; i++) {
      sum += term;
      term *= ((n - i) / (i + 1)) * (p / (1 - p));
    }
    return sum;
  };
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (tail(mid) > 0.05) lo = mid;
    else hi = mid;
  }
  return hi;
}

interface Matrix {
  changePoints: { track: string; caseId: string; older: string; newer: string; direction: string; comparison: { ratio: number } }[];
  comparisons: number;
}

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes === -1 ? args : args.slice(0, dashes);
const extra = dashes === -1 ? [] : args.slice(dashes + 1);
const releasesAt = own.indexOf('--releases');
const releaseCount = releasesAt === -1 ? 4 : Number(own.splice(releasesAt, 2)[1]);
const [timesText, suite = 'json-reviver'] = own;
const times = Number(timesText ?? 20);
if (!Number.isInteger(times) || times < 1 || !Number.isInteger(releaseCount) || releaseCount < 2) {
  console.error('usage: releases-false-changes.ts <times> [--releases k ≥ 2] [suite] [-- releases args]');
  process.exit(2);
}

const versions = Array.from({ length: releaseCount }, (_, i) => `${i + 1}.0.0`);
const registry = await startReleaseRegistry({
  pkg: MATRIX_PACKAGE,
  versions,
  // Every release is this Node.js, unchanged: any change point is a false one.
  script: () => `#!/bin/sh\nexec '${process.execPath}' "$@"\n`,
  plugin: join(repoRoot, 'test/fixtures/release-runtime/matrix-plugin.ts'),
  runtimes: join(cacheDir, 'runtimes'),
});
const range = `mxrt@${versions[0]}..mxrt@${versions.at(-1)}`;
console.log(`${times} matrices of ${range} (${releaseCount} releases of one binary: ${process.execPath}) on ${suite} ${extra.join(' ')}; ${machineSpeedText()}`);

let withChange = 0;
let done = 0;
try {
  for (let i = 0; i < times; i++) {
    const dir = join(registry.scratch, `matrix-${i}`);
    const started = Date.now();
    // Asynchronously: the registry answers from this process's event loop, which a synchronous spawn would block.
    const r = await runCliAsync(['releases', range, suite, '--dir', dir, '--json', '--quiet', ...extra], registry.env());
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    if (r.status !== 0) {
      console.error(`matrix ${i + 1}: exit ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`);
      process.exitCode = 1;
      break;
    }
    const matrix = JSON.parse(r.stdout) as Matrix;
    done++;
    if (matrix.changePoints.length) withChange++;
    const points = matrix.changePoints.map((c) => `${c.caseId} ${c.older}→${c.newer} ${c.direction} ${c.comparison.ratio.toFixed(3)}`);
    console.log(`matrix ${i + 1}: ${matrix.changePoints.length} change points of ${matrix.comparisons} steps × cases${points.length ? ` (${points.join('; ')})` : ''}; ${seconds} s; load ${loadText()}`);
  }
} finally {
  await registry.close();
}
if (done) console.log(`matrices with a change point: ${withChange} of ${done} (95% upper bound on the rate ${(100 * upperBound(withChange, done)).toFixed(1)}%)`);
