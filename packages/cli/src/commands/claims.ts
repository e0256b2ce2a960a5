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
import { CLAIMS_DEFAULTS, claimsCampaign } from '@rtbench/claims';
import { runCampaign } from '@rtbench/campaign';
import { assertWritableOutput } from '@rtbench/saved-runs';
import { emit, outputReporter, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { campaignListener } from '../emit/campaign.ts';
import { CLAIMS_WORDS } from '../emit/campaign-lines.ts';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { DEFAULT_MEASURER, parsePercent } from '../plan.ts';
import { resultsDir } from '../paths.ts';
import { planPort } from '../run/plan-port.ts';

/** The default measurer's verdicts (timing's threshold and confidence), which claims are checked with. */
const TIMING = DEFAULT_MEASURER.defaults;

export interface ClaimsFlags extends OutputFlags {
  /** Only the claims whose sentence contains one of these texts (case-insensitive). */
  claim?: readonly string[];
  runtime?: readonly string[];
  across?: readonly string[];
  rounds?: string | number;
  maxRounds?: string | number;
  time?: string;
  warmup?: string;
  maxTime?: string;
  timeout?: string;
  seed?: string | number;
  schedule?: string;
  threshold?: string | number;
  save?: string;
  html?: string | true;
}

export async function claimsCommand(names: readonly string[], flags: ClaimsFlags): Promise<number> {
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
