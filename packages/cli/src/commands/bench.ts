/** `rtbench bench <suite>`: a suite measured on runtimes, a table; with --compare, a verdict per case (run/measure-suite.ts). */
import { BENCH_OPTIONS } from '../options/bench.ts';
import { command } from '../options/command.ts';
import { measureSuite } from '../run/measure-suite.ts';

export const bench = command({
  name: 'bench',
  positionals: [{ name: 'suite', required: true, missing: 'name a suite (`rtbench suites` lists them) or a suite folder' }],
  summary: 'Run a suite on one or more runtimes and print a table; with --compare, a verdict per case',
  options: BENCH_OPTIONS,
  measurers: true,
  run: ([suite], flags) => measureSuite(suite!, flags),
});
