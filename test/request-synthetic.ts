/**
 * Synthetic results of request cases for the verdict tests and the
 * calibration script's simulation: per round one process per arm, each with
 * a process-wide speed (log-normal, shared in part by the two processes of
 * a round, as back-to-back processes share the machine), requests with
 * their own noise, and a planted tail every `tailEvery`-th request.
 */
import { parseRun, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { createRandom } from '../packages/stats/src/index.ts';
import { syntheticRun } from './compare-synthetic.ts';

export interface SyntheticRequestArm {
  id: string;
  /** Multiplies every request's CPU. */
  factor: number;
  /** Multiplies the planted tail's extra CPU only. */
  tailFactor?: number;
}

export interface SyntheticRequestOptions {
  arms: SyntheticRequestArm[];
  rounds: number;
  /** Requests per process, the first included. */
  requests?: number;
  /** Log-sd of a process's speed; half of it is shared by the processes of one round. */
  processSigma?: number;
  /** Log-sd of one request's CPU around its process's. */
  requestSigma?: number;
  tailEvery?: number;
  seed?: number;
}

const CASE = 'relay [cpu=js thread]';
const OUTCOMES = { ok: 0, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 };
const CLOCK = { name: 'host schedstat', resolutionNs: 1, readCostNs: 0, edgeAligned: false };

/** A valid compare run of one request case (arms as node variants), CPU per request in ms. */
export function syntheticRequestRun(o: SyntheticRequestOptions): RunRecord {
  const random = createRandom(o.seed ?? 1);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const [processSigma, requestSigma, requests, tailEvery] = [o.processSigma ?? 0.04, o.requestSigma ?? 0.1, o.requests ?? 200, o.tailEvery ?? 50];
  const rounds = new Map(o.arms.map((a) => [a.id, [] as CaseResult['rounds']]));
  for (let round = 0; round < o.rounds; round++) {
    const shared = normal() * processSigma * Math.SQRT1_2;
    for (const [order, arm] of o.arms.entries()) {
      const speed = Math.exp(shared + normal() * processSigma * Math.SQRT1_2) * arm.factor;
      const samples = Array.from({ length: requests }, (_, i) => {
        const tail = (i + 1) % tailEvery === 0 ? 6 * (arm.tailFactor ?? 1) : 0;
        return (i === 0 ? 10 : 1 + tail) * speed * Math.exp(normal() * requestSigma);
      });
      rounds.get(arm.id)!.push({
        round,
        order,
        samples,
        iterationsPerSample: 1,
        warmupIterations: 0,
        async: true,
        clock: CLOCK,
        digest: { hash: 'feedfacefeedface', summary: `${requests} responses` },
        wallMs: 1000,
        requests: { outcomes: { ...OUTCOMES, ok: requests }, jsThread: { tid: 1, name: 'main', main: true }, threads: 4, unsettled: 0 },
      });
    }
  }
  const run = syntheticRun({ suite: 'requests', mode: 'compare', cases: [{ id: CASE, ns: 1 }], arms: o.arms.map((a) => ({ id: a.id, factor: 1 })), rounds: o.rounds, seed: o.seed ?? 1 });
  run.cases = [{ id: CASE, name: 'relay', params: { cpu: 'js thread' }, metric: { name: 'CPU per request', unit: 'ms', direction: 'lower-is-better' } }];
  run.results = o.arms.map((a): CaseResult => ({ caseId: CASE, variantId: a.id, status: 'ok', rounds: rounds.get(a.id)!, failures: [] }));
  return parseRun(JSON.parse(JSON.stringify(run)), 'synthetic requests');
}
