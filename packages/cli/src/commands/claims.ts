/**
 * `rtbench claims [suite…]`: checks the claims the suites state. parse ->
 * the claims' planner (@rtbench/claims claimsCampaign: the checks planned
 * as the smallest runs that decide them) held by the campaign loop
 * (@rtbench/run runCampaign: each run planned here as bench plans one,
 * adding sets to a case only while a check on it is undecided, and saved
 * with its checks and outcomes) -> the view, through the reporter map.
 * `--runtime` replaces a variant in the claims (node=/path/to/node,
 * node@24); `--across` checks them on several releases of one runtime or
 * versions of a package (react@18.3.1,react@19.2.0).
 */
import { defaultReporter } from '@rtbench/report';
import { CLAIMS_DEFAULTS, claimsCampaign, UNDECIDED_EXIT } from '@rtbench/claims';
import { runCampaign } from '@rtbench/campaign';
import { assertWritableOutput } from '@rtbench/saved-runs';
import { emit, outputReporter, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { campaignListener } from '../emit/campaign.ts';
import { CLAIMS_WORDS } from '../emit/campaign-lines.ts';
import { parseDuration, parsePercent, parsePositiveInt } from '../args/options.ts';
import { DEFAULT_MEASURER } from '../plan.ts';
import { resultsDir } from '../paths.ts';
import { planPort } from '../run/plan-port.ts';
import type { OptionSpec } from '../args/args.ts';
import { MAX_MEMORY_OPTION } from '../args/memory-option.ts';
import { command } from '../options/command.ts';
import { FIXED_WARMUP_OPTION, FORMAT_OPTION, GLOBAL_OPTIONS, MARKDOWN_OPTION, PRINTING_OPTIONS, THRESHOLD_OPTION } from '../options/shared.ts';

/** The default measurer's verdicts (timing's threshold and confidence), which claims are checked with. */
const TIMING = DEFAULT_MEASURER.record.verdict;

interface ClaimsFlags extends OutputFlags {
  /** Only the claims whose sentence contains one of these texts (case-insensitive). */
  claim?: readonly string[];
  runtime?: readonly string[];
  across?: readonly string[];
  rounds?: string | number;
  maxRounds?: string | number;
  time?: string;
  warmup?: string;
  fixedWarmup?: boolean;
  maxTime?: string;
  timeout?: string;
  seed?: string | number;
  schedule?: string;
  threshold?: string | number;
  save?: string;
  html?: string | true;
}

async function claimsCommand(names: readonly string[], flags: ClaimsFlags): Promise<number> {
  const reporter = outputReporter(flags);
  const rounds = parsePositiveInt(flags.rounds ?? CLAIMS_DEFAULTS.rounds, '--rounds');
  const maxRounds = parsePositiveInt(flags.maxRounds ?? Math.max(rounds, CLAIMS_DEFAULTS.maxRounds), '--max-rounds');
  if (maxRounds < rounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${rounds}`);
  // Checked before anything runs: where the page goes.
  if (typeof flags.html === 'string') assertWritableOutput(flags.html, '--html');
  const budgetMs = parseDuration(flags.maxTime ?? CLAIMS_DEFAULTS.budget, '--max-time');
  const planner = await claimsCampaign(
    {
      suites: names,
      ...(flags.claim ? { picked: flags.claim } : {}),
      ...(flags.runtime ? { runtime: flags.runtime } : {}),
      ...(flags.across ? { across: flags.across } : {}),
      rounds,
      maxRounds,
      setMs: parseDuration(flags.time ?? CLAIMS_DEFAULTS.setTime, '--time'),
      budgetMs,
      threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : TIMING.threshold([]),
      confidence: TIMING.confidence,
      ...(flags.warmup ? { warmupMs: parseDuration(flags.warmup, '--warmup') } : {}),
      ...(flags.fixedWarmup === true ? { fixedWarmup: true } : {}),
      ...(flags.timeout ? { timeout: flags.timeout } : {}),
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.schedule ? { schedule: flags.schedule } : {}),
      resultsDir,
      ...(flags.save !== undefined ? { save: flags.save } : {}),
    },
    planPort(),
  );
  return runCampaign(
    planner,
    { budgetMs },
    campaignListener(flags, CLAIMS_WORDS, {
      answer: (view) => {
        emit(view, reporter, flags);
        if (reporter !== defaultReporter() && !flags.quiet) emit(view, defaultReporter(), flags, process.stderr);
      },
      ...(flags.html !== undefined ? { html: flags.html } : {}),
      page: 'claims.html',
    }),
  );
}

const CLAIMS_SUMMARY = "Check the suites' claims (default: every suite that states some): held, broken or undecided, with the measured ratio and its interval";

const CLAIMS_DETAILS: readonly string[] = [
  'Each suite states its claims beside its cases (docs/claims.md). The checks are planned as the smallest runs ' +
    'that decide them: per suite, one run per set of variants and measurer, of only the cases the checks name, ' +
    'in interleaved lockstep sets of fresh processes; a case gets more sets while a check on it is undecided.',
  'A claim is held when its whole interval lies on the claimed side of its bound, broken when the whole interval ' +
    'lies on the other side, undecided otherwise; the intervals of one invocation are adjusted together (Bonferroni).',
  `Exit 0: every claim held; 1: a claim broke, or a run failed; ${UNDECIDED_EXIT}: none broke, some stayed undecided within the budget; 2: usage.`,
];

const CLAIMS_OPTIONS = [
  { name: 'claim', kind: 'list', value: 'text', help: 'Only the claims whose sentence contains this text (case-insensitive)' },
  {
    name: 'runtime',
    kind: 'list',
    value: 'variant',
    help: 'Check the claims with this variant in place of their own of its runtime (node=/src/node/out/Release/node, node@24), only the claims it touches',
  },
  {
    name: 'across',
    kind: 'list',
    value: 'releases',
    help: 'Check the claims on each of these releases of one runtime (node@20,node@22,node@24,node@26), or versions of a package its suites ' +
      'depend on (react@18.3.1,react@19.2.0, pinned in every variant): claims × releases, and the bisect command for a claim that flipped',
  },
  { name: 'rounds', kind: 'value', value: 'n', help: `Sets (each a fresh process per variant) every case gets first (default ${CLAIMS_DEFAULTS.rounds})` },
  { name: 'max-rounds', kind: 'value', value: 'n', help: `Sets a case may get while a check on it is undecided (default ${CLAIMS_DEFAULTS.maxRounds})` },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process and set (default ${CLAIMS_DEFAULTS.setTime})` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${CLAIMS_DEFAULTS.warmupMs}ms)` },
  FIXED_WARMUP_OPTION,
  { name: 'max-time', kind: 'value', value: 'duration', help: `Start no set after this much wall time in all (default ${CLAIMS_DEFAULTS.budget})` },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  MAX_MEMORY_OPTION,
  { name: 'seed', kind: 'value', value: 'n', help: 'Seed for the order of variants and cases' },
  {
    name: 'schedule',
    kind: 'value',
    value: 'kind',
    help: 'How the timed sets are scheduled: lockstep (default), or duet (two arms at once on the two cores; docs/duet.md)',
  },
  { name: 'save', kind: 'value', value: 'folder', help: 'Where the runs are saved (default results/claims/<suites>-<time>/)' },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the claims as an HTML page, to this file or into the runs\' folder' },
] as const satisfies readonly OptionSpec[];

export const claims = command({
  name: 'claims',
  positionals: [{ name: 'suites', variadic: true }],
  summary: CLAIMS_SUMMARY,
  details: CLAIMS_DETAILS,
  options: [...CLAIMS_OPTIONS, FORMAT_OPTION, ...PRINTING_OPTIONS, MARKDOWN_OPTION, THRESHOLD_OPTION, ...GLOBAL_OPTIONS],
  run: (suites, flags) => claimsCommand(suites, flags),
});
