/**
 * A variant's NODE_ENV reaches the bundle a request case serves: the React
 * Worker under `node` (unset: the deployment default, production) and under
 * `node NODE_ENV=development` is bundled with each arm's value, a line says
 * which arm got which and who reads it, and the development build is slower.
 * React 19's development build records an owner stack (an Error) for every
 * element it creates and checks every key, work its production build leaves
 * out: on the 300-row page it costs several times the production render
 * (docs/variants.md), so the margin asked here (1.5×) holds by design.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

const DEV = 'node NODE_ENV=development';
const CASE = 'react page [cpu=js thread]';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

describe('NODE_ENV per arm in a request case', () => {
  let r: CliResult;
  let run: RunRecord;
  beforeAll(async () => {
    const out = tempFile('run.json');
    r = await runCliAsync(['bench', join('test', 'fixtures', 'worker-react'), '--runtime', `node,${DEV}`, '--rounds', '2', '--filter', 'cpu=js thread', '--save', out, '--quiet', '--no-color']);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
  });

  it('each arm is bundled with its own value, and one line says so', () => {
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`worker-react: react, react-dom read process.env.NODE_ENV, written in per arm: node "production" (unset: what a deployment build writes), ${DEV} "development"`);
    // The two builds render the same page: the same work, so the ratio is a verdict's.
    expect(run.digestMismatches).toEqual([]);
  });

  it("the development build's requests take more CPU than the production build's", () => {
    const warm = (variant: string): number[] => run.results.find((x) => x.caseId === CASE && x.variantId === variant)!.rounds.flatMap((round) => round.samples.slice(1));
    expect(median(warm(DEV)) / median(warm('node'))).toBeGreaterThan(1.5);
  });
});
