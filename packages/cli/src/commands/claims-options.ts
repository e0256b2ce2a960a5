/** `rtbench claims`: its options and help, declared once (args/command-line.ts lists the command). */
import type { OptionSpec } from '../args/args.ts';
import { MAX_MEMORY_OPTION } from '../args/memory-option.ts';
import { CLAIMS_DEFAULTS, UNDECIDED_EXIT } from '@rtbench/claims';

export const CLAIMS_SUMMARY = "Check the suites' claims (default: every suite that states some): held, broken or undecided, with the measured ratio and its interval";

export const CLAIMS_DETAILS: readonly string[] = [
  'Each suite states its claims beside its cases (docs/claims.md). The checks are planned as the smallest runs that decide them: per suite, one run per set of variants and measurer, of only the cases the checks name, in interleaved lockstep sets of fresh processes; a case gets more sets while a check on it is undecided.',
  'A claim is held when its whole interval lies on the claimed side of its bound, broken when the whole interval lies on the other side, undecided otherwise; the intervals of one invocation are adjusted together (Bonferroni).',
  `Exit 0: every claim held; 1: a claim broke, or a run failed; ${UNDECIDED_EXIT}: none broke, some stayed undecided within the budget; 2: usage.`,
];

export const CLAIMS_OPTIONS = [
  { name: 'claim', kind: 'list', value: 'text', help: 'Only the claims whose sentence contains this text (case-insensitive)' },
  { name: 'runtime', kind: 'list', value: 'variant', help: 'Check the claims with this variant in place of their own of its runtime (node=/src/node/out/Release/node, node@24), only the claims it touches' },
  { name: 'across', kind: 'list', value: 'releases', help: 'Check the claims on each of these releases of one runtime (node@20,node@22,node@24,node@26), or versions of a package its suites depend on (react@18.3.1,react@19.2.0, pinned in every variant): claims × releases, and the bisect command for a claim that flipped' },
  { name: 'rounds', kind: 'value', value: 'n', help: `Sets (each a fresh process per variant) every case gets first (default ${CLAIMS_DEFAULTS.rounds})` },
  { name: 'max-rounds', kind: 'value', value: 'n', help: `Sets a case may get while a check on it is undecided (default ${CLAIMS_DEFAULTS.maxRounds})` },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process and set (default ${CLAIMS_DEFAULTS.setTime})` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${CLAIMS_DEFAULTS.warmupMs}ms)` },
  { name: 'max-time', kind: 'value', value: 'duration', help: `Start no set after this much wall time in all (default ${CLAIMS_DEFAULTS.budget})` },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  MAX_MEMORY_OPTION,
  { name: 'seed', kind: 'value', value: 'n', help: 'Seed for the order of variants and cases' },
  { name: 'schedule', kind: 'value', value: 'kind', help: 'How the timed sets are scheduled: lockstep (default), or duet (two arms at once on the two cores; docs/duet.md)' },
  { name: 'save', kind: 'value', value: 'folder', help: 'Where the runs are saved (default results/claims/<suites>-<time>/)' },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the claims as an HTML page, to this file or into the runs\' folder' },
] as const satisfies readonly OptionSpec[];
