/**
 * Run files for the HTML report's tests.
 *
 * hostileRun: a run file written to attack a page: markup, script and line separators in
 * every string the report shows (suite, case, variant, flags, paths, host
 * environment). Built from a real saved run so the numbers stay real.
 */
import { parseRun, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

export const HOSTILE = {
  suite: '</title><script>window.pwned = "suite"; alert("suite")</script>',
  group: '</script><script>window.pwned = "group"; alert("group")</script>',
  name: '<img src=x onerror="window.pwned = \'name\'; alert(\'name\')"> & <!-- "quoted" \u2028',
  variant: 'node<svg onload="alert(\'variant\')">',
  flag: '--x=<script>alert("flag")</script>',
  binary: '/tmp/"><img src=x onerror=alert("binary")>/node',
  env: '\u2029</script><!--<script>alert("env")</script>',
  failure: 'worker died: <iframe src="javascript:alert(\'failure\')"></iframe>',
} as const;

/**
 * The first two cases and two variants of `run`, renamed to HOSTILE's
 * strings; the second variant crashed on the second case (no rounds).
 */
export function hostileRun(run: RunRecord): RunRecord {
  const [a, b] = run.variants;
  const [c0, c1] = run.cases;
  if (!a || !b || !c0 || !c1) throw new Error('hostileRun needs a run with two variants and two cases');
  const caseId = (id: string): string => (id === c0.id ? `${HOSTILE.group} / ${HOSTILE.name}` : id);
  const variantId = (id: string): string => (id === a.id ? HOSTILE.variant : id);
  return {
    ...run,
    suite: HOSTILE.suite,
    command: ['bench', HOSTILE.suite, '--runtime', `${HOSTILE.variant} ${HOSTILE.flag}`],
    host: { ...run.host, env: { ...run.host.env, NODE_OPTIONS: HOSTILE.env } },
    variants: [{ ...a, id: HOSTILE.variant, flags: [HOSTILE.flag], binary: HOSTILE.binary }, b],
    cases: [{ ...c0, id: caseId(c0.id), group: HOSTILE.group, name: HOSTILE.name }, c1],
    results: run.results
      .filter((r) => (r.caseId === c0.id || r.caseId === c1.id) && (r.variantId === a.id || r.variantId === b.id))
      .map((r) => ({ ...r, caseId: caseId(r.caseId), variantId: variantId(r.variantId) }))
      .map((r) => (r.caseId === c1.id && r.variantId === b.id ? { ...r, status: 'failed' as const, rounds: [], stats: undefined, failures: [{ kind: 'crash' as const, message: HOSTILE.failure }] } : r)),
    digestMismatches: [],
  };
}

/**
 * `run` as a newer rtbench records it: each sample's start time in every
 * round (sampleStartMs) and, for the first case and variant, two modes of
 * process medians in the statistics (split at their median).
 */
export function withSampleTimesAndModes(run: RunRecord): RunRecord {
  const [first] = run.results;
  return {
    ...run,
    results: run.results.map((r) => {
      const rounds = r.rounds.map((round) => {
        let t = 5;
        const sampleStartMs = round.samples.map((ns) => {
          const start = t;
          t += (ns * round.iterationsPerSample) / 1e6 + 0.01;
          return start;
        });
        return { ...round, sampleStartMs };
      });
      if (r !== first || !r.stats) return { ...r, rounds };
      const sorted = [...r.stats.roundMedians].sort((a, b) => a - b);
      const half = Math.floor(sorted.length / 2);
      const band = (xs: number[]) => ({ center: xs[Math.floor(xs.length / 2)]!, count: xs.length, low: xs[0]!, high: xs[xs.length - 1]! });
      const modes = { modes: [band(sorted.slice(0, half)), band(sorted.slice(half))], method: 'fixture' };
      // Counted per process, as a run records them now: the view shows these statistics as they are.
      return { ...r, rounds, stats: { ...r.stats, processes: r.stats.roundMedians.length, modes } };
    }),
  };
}

const CLOCK = { name: 'host performance.now()', resolutionNs: 1_000, readCostNs: 0, edgeAligned: false };
const METRICS = [
  { label: 'req/s', metric: { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' } },
  { label: 'p99', metric: { name: 'latency p99', unit: 'ms', direction: 'lower-is-better' } },
  { label: 'cpu/req js', metric: { name: 'server CPU per request (JavaScript thread)', unit: 'ms', direction: 'lower-is-better' } },
  { label: 'wake/req js', metric: { name: 'server wake-ups per request (JavaScript thread)', unit: 'switches', direction: 'lower-is-better' } },
] as const;

/**
 * A run of HTTP load cases: two load measurements (c1, c100) of `name` on
 * `variant`, four metrics each; at c100 one request in 100 answered 500.
 */
export function httpLoadRun(name = 'hello', variant = 'node'): RunRecord {
  const run = syntheticRun({ suite: 'http', cases: [{ id: 'x', ns: 1 }], arms: [{ id: variant, factor: 1 }], rounds: 3 });
  const loads = [
    { name: 'c1', connections: 1, values: [5_000, 0.4, 0.05, 1.06], errorStatus: 0 },
    { name: 'c100', connections: 100, values: [9_000, 30, 0.05, 0.017], errorStatus: 90 },
  ];
  run.cases = [];
  run.results = [];
  for (const load of loads) {
    METRICS.forEach(({ label, metric }, i) => {
      const id = `${name} [load=${load.name}, metric=${label}]`;
      run.cases.push({ id, name, params: { load: load.name, metric: label }, metric });
      const rounds = [0, 1, 2].map(
        (round): CaseResult['rounds'][number] => ({
          round,
          order: 0,
          samples: [load.values[i]! * (1 + round / 100)],
          iterationsPerSample: 1,
          warmupIterations: 0,
          async: false,
          clock: CLOCK,
          digest: { hash: 'feedfacefeedface', summary: 'string(11)' },
          wallMs: 3_000,
          load: { generator: 'wrk', generatorBusy: 0.5, connections: load.connections, pipelining: 1, outcomes: { responses: 9_000, errorStatus: load.errorStatus, socketErrors: 0, timeouts: 0 } },
        }),
      );
      run.results.push({ caseId: id, variantId: variant, status: 'ok', rounds, failures: [] });
    });
  }
  return parseRun(JSON.parse(JSON.stringify(run)), 'synthetic load');
}
