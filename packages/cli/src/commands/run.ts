/**
 * `rtbench run <file>`: a file written for another harness, or a Worker,
 * measured unchanged with bench's options; what the command line gives
 * the file (--set, a Worker's requests) goes to the plan as `brought`.
 */
import { BROUGHT_FORMATS_IN_WORDS, broughtFileProblem, checkBroughtFile, isWorkerTarget, RUN_TARGETS_IN_WORDS } from '@rtbench/suite-loader';
import type { OptionSpec } from '../args/args.ts';
import { UsageError } from '../errors.ts';
import { BENCH_OPTIONS } from '../options/bench.ts';
import { measuringCommand } from '../options/measuring-command.ts';
import { measureSuite } from '../run/measure-suite.ts';

/** run's options: bench's, compare.js's --set for Node core benchmark files, the values a file's cases may differ in, a Worker's requests. */
const RUN_OPTIONS = [
  {
    name: 'set',
    kind: 'list',
    value: 'key=value',
    help: 'A Node.js core benchmark file: run only these values of one of its configurations, ' +
      'as compare.js --set does (repeat it; a key given several times takes each value)',
  },
  {
    name: 'random',
    kind: 'list',
    value: 'case',
    help: 'A benchmark file: this case returns a random value (crypto.randomUUID(), Math.random()); the same-work check ' +
      'compares its shape, not its content (a case id, * for any text; repeat it; as a "// rtbench: random <case>" comment)',
  },
  {
    name: 'per-runtime',
    kind: 'list',
    value: 'case',
    help: 'A benchmark file: this case returns a value each runtime makes its own (a version string); ' +
      'compared by its shape, as --random (repeat it; as a "// rtbench: per-runtime <case>" comment)',
  },
  {
    name: 'real-random-at-load',
    kind: 'flag',
    help: "A benchmark file: Math.random keeps the runtime's own generator while the file loads. By default it is seeded " +
      'then (the same inputs in every process and runtime) and the runtime\'s own again before anything is timed',
  },
  {
    name: 'request',
    kind: 'list',
    value: 'request',
    help: 'A Worker: a request to send, "[METHOD] /path [header:value ...] [@body-file]", each its own case (repeat it; default GET /)',
  },
  {
    name: 'requests',
    kind: 'value',
    value: 'file',
    help: 'A Worker: a JSON mix of requests with weights, one case: [{ "name", "weight", "request": "POST ' +
      '/api @body.json" }] or { "mix": [...], "requests": n, "compareHeaders": [...], "normalize": [...] }',
  },
  {
    name: 'normalize',
    kind: 'list',
    value: 'regex',
    help: "A Worker: each response's matches of this regular expression are replaced by one mark before responses are compared " +
      "(same work), for a value masking cannot see: a value fixed per process, an id of no known shape (repeat it)",
  },
  ...BENCH_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const run = measuringCommand({
  name: 'run',
  positionals: [{ name: 'file', required: true, missing: `name a benchmark file written for ${RUN_TARGETS_IN_WORDS}` }],
  summary: `Run a benchmark file written for ${BROUGHT_FORMATS_IN_WORDS}, or a Worker (a module, a wrangler project), unchanged; it takes bench's options`,
  options: RUN_OPTIONS,
  run: ([file], flags) => {
    const set = flags.set ?? [];
    const request = flags.request ?? [];
    const problem = broughtFileProblem(file!);
    // A file written for a benchmark harness is one, whatever else it exports (as the suite loader decides).
    const declared = [...(flags.random ?? []).map((pattern) => ({
      pattern,
      why: 'random' as const,
    })), ...(flags.perRuntime ?? []).map((pattern) => ({ pattern, why: 'per-runtime' as const }))];
    if (problem !== undefined && isWorkerTarget(file!)) {
      if (set.length) throw new UsageError(`--set sets a configuration of a Node.js core benchmark file; ` +
        `${file} is a Worker (its requests: --request or --requests)`);
      if (declared.length) throw new UsageError(`--random and --per-runtime declare a benchmark file's cases; ` +
        `${file} is a Worker (a value that changes per response: --normalize)`);
      if (flags.realRandomAtLoad) throw new UsageError(`--real-random-at-load is a benchmark file's; ${file} is a Worker`);
      const worker = {
        request,
        ...(flags.requests !== undefined ? { requests: flags.requests } : {}),
        ...(flags.normalize ? { normalize: flags.normalize } : {}),
      };
      return measureSuite(file!, { ...flags, brought: { worker } });
    }
    if (problem) throw new UsageError(problem);
    if (request.length || flags.requests !== undefined || flags.normalize) throw new UsageError(`--request, --requests and --normalize are a ` +
      `Worker's; ${file} is a benchmark file, not a Worker`);
    checkBroughtFile(file!, set);
    return measureSuite(file!, { ...flags, brought: { set, declared, ...(flags.realRandomAtLoad ? { realRandomAtLoad: true } : {}) } });
  },
});
