/**
 * `rtbench claims [suite…]`: checks the claims the suites state. Per suite,
 * the checks are planned as the smallest runs that decide them (claims/plan.ts),
 * each run goes through the one run loop (run/execute.ts), adding rounds to
 * a case only while a check on it is undecided, and each saved run carries
 * its checks and outcomes. `--runtime` replaces a variant in the claims
 * (node=/path/to/node, node@24); `--across` checks them on several releases
 * of one runtime or versions of a package (react@18.3.1,react@19.2.0): claims
 * × releases, the bisect command for a claim that flipped. Exit codes: 0 every
 * claim held, 1 one broke (or a run failed), 3 some stayed undecided.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { RunRecord } from '@rtbench/core/schema';
import { defaultReporter, pageReporter, counted } from '@rtbench/report';
import { assertWritableOutput, CampaignBudget, SIGNAL_EXIT, writeRunAtomically, type MeasurerDescriptor } from '@rtbench/run';
import { fileStamp, writeFileAtomically } from '@rtbench/host';
import { assertClaimsFolder, baseVariant, claimRuns, CLAIMS_DEFAULTS, claimsColumns, claimsFolder, columnChecks, columnsView, runBudgetMs, settledWhen, suitesToCheck, UNDECIDED_EXIT, variantArgument, type ClaimsRunPlan } from '@rtbench/claims';
import { emit, outputReporter, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { info } from '../emit/info.ts';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { DEFAULT_MEASURER, parseMeasure, parsePercent } from '../plan.ts';
import { resultsDir } from '../paths.ts';
import type { SuiteLocation } from '@rtbench/suite-loader';
import { execute } from '../run/execute.ts';
import { planPort } from '../run/plan-port.ts';
import { checkClaims, type ClaimFamily, claimsBlock } from '@rtbench/verdicts';

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
  threshold?: string | number;
  save?: string;
  html?: string | true;
}

export async function claimsCommand(names: readonly string[], flags: ClaimsFlags): Promise<number> {
  const reporter = outputReporter(flags);
  if (flags.across && flags.runtime) throw new UsageError('use either --runtime (replace a variant in the claims) or --across (the claims on several releases), not both');
  const threshold = flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : TIMING.threshold([]);
  const rounds = parsePositiveInt(flags.rounds ?? CLAIMS_DEFAULTS.rounds, '--rounds');
  const maxRounds = parsePositiveInt(flags.maxRounds ?? Math.max(rounds, CLAIMS_DEFAULTS.maxRounds), '--max-rounds');
  if (maxRounds < rounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${rounds}`);
  const setMs = parseDuration(flags.time ?? CLAIMS_DEFAULTS.setTime, '--time');
  const budgetMs = parseDuration(flags.maxTime ?? CLAIMS_DEFAULTS.budget, '--max-time');
  const columns = claimsColumns(flags.across, flags.runtime);
  const suites = await suitesToCheck(names, flags.claim);

  // Every check of the invocation, per column, planned before anything runs.
  const planned = columns.map((column) => ({
    column,
    runs: suites.flatMap(({ location, checks, ownMeasurer }) => claimRuns(location.name, columnChecks(location, checks, column)).map((plan) => ({ plan, location, ownMeasurer }))),
  }));
  const size = planned.reduce((n, c) => n + c.runs.reduce((k, r) => k + r.plan.checks.length, 0), 0);
  if (size === 0) throw new UsageError(`no claim involves ${columns.flatMap((c) => c.replacements.map((r) => r.id)).join(', ')}: nothing to check`);
  const family: ClaimFamily = { confidence: TIMING.confidence, size, threshold };

  // Checked before anything runs: where the runs and the page go.
  const dir = claimsFolder(resultsDir, suites.map((s) => s.location.name), columns, fileStamp(new Date().toISOString()), flags.save);
  assertClaimsFolder(dir, flags.save !== undefined);
  const html = flags.html === undefined ? undefined : flags.html === true ? join(dir, 'claims.html') : flags.html;
  if (html !== undefined && flags.html !== true) assertWritableOutput(html, '--html');
  mkdirSync(dir, { recursive: true });
  const budget = new CampaignBudget(budgetMs);
  const saved: { run: RunRecord; file: string; column: string }[] = [];
  let runIndex = 0;
  const totalRuns = planned.reduce((n, c) => n + c.runs.length, 0);
  for (const { column, runs } of planned) {
    for (const { plan: claimsPlan, location, ownMeasurer } of runs) {
      const file = join(dir, `${String(++runIndex).padStart(2, '0')}-${location.name}${column.label ? `-${column.label.replace(/[^a-z0-9@.-]+/gi, '_')}` : ''}.json`);
      const result = await runOne(location, claimsPlan, { rounds, maxRounds, setMs, budgetMs: runBudgetMs(budget.leftMs(), totalRuns - runIndex + 1), family, flags, file, ownMeasurer });
      saved.push({ run: result.run, file, column: column.label });
      if (result.stop !== undefined) {
        process.stderr.write(`stopped: the runs so far are in ${dir}\n`);
        return result.stop;
      }
    }
  }

  // A bisect command names a suite as it was typed here (a path stays a path).
  const typedName = new Map(suites.map((s) => [s.location.name, s.typed]));
  const view = columnsView(saved, columns, flags.across !== undefined, (suite) => typedName.get(suite) ?? suite);
  emit(view, reporter, flags);
  if (reporter !== defaultReporter() && !flags.quiet) emit(view, defaultReporter(), flags, process.stderr);
  if (html !== undefined) {
    writeFileAtomically(html, pageReporter().render(view, { color: false, columns: 100 }));
    info(flags, `html report ${html}`);
  }
  info(flags, `saved ${counted(saved.length, 'run')} in ${dir} (rtbench report ${dir})`);
  if (view.counts.broken > 0 || saved.some((s) => s.run.status === 'failed')) return 1;
  return view.counts.undecided > 0 ? UNDECIDED_EXIT : 0;
}

interface RunSettings {
  rounds: number;
  maxRounds: number;
  setMs: number;
  budgetMs: number;
  family: ClaimFamily;
  flags: ClaimsFlags;
  file: string;
  ownMeasurer: MeasurerDescriptor | undefined;
}

/** One planned run through the run loop; its checks decided and saved with it. */
async function runOne(location: SuiteLocation, claimsPlan: ClaimsRunPlan, s: RunSettings): Promise<{ run: RunRecord; stop?: number }> {
  const bases = claimsPlan.variants.map(baseVariant);
  // A measurer whose rounds are fixed unless asked (instruction counts), or never adaptive (host-timed cases), runs a fixed
  // number of rounds (makePlan's rule); the rest add sets while a check is undecided.
  const measured = parseMeasure(claimsPlan.measure);
  const chosen = measured ?? s.ownMeasurer;
  const fixed = chosen !== undefined && chosen.defaults.bench.adaptive !== 'unless-fixed';
  const planFlags = {
    rounds: measured ? measured.defaults.compare.rounds : s.rounds,
    // Adaptive from the start (the round plan is set below): makePlan's fixed-rounds advice is for signed-rank verdicts.
    ...(fixed ? {} : { maxRounds: s.maxRounds }),
    time: `${s.setMs * s.rounds}ms`,
    warmup: s.flags.warmup ?? CLAIMS_DEFAULTS.warmup,
    ...(measured ? { measure: measured.name } : s.ownMeasurer ? {} : { measurerOptions: { 'sets-per-process': CLAIMS_DEFAULTS.setsPerProcess } }),
    ...(s.flags.timeout ? { timeout: s.flags.timeout } : {}),
    ...(s.flags.seed !== undefined ? { seed: s.flags.seed } : {}),
  };
  // By its entry: a suite given as a path is found again, and its runs are named as its checks are.
  const plan = await planPort()({ suite: location.entry, arms: bases.map(variantArgument), flags: planFlags });
  plan.suite.name = location.name;
  plan.suite.cases = plan.suite.cases.filter((c) => claimsPlan.cases.includes(c.id));
  if (!fixed) plan.options.roundPlan = { order: 'balanced', rounds: s.rounds, adaptive: { target: TIMING.threshold([]), maxRounds: s.maxRounds, budgetMs: s.budgetMs } };
  const executed = await execute(plan, s.file, s.flags.quiet === true, undefined, settledWhen(claimsPlan, s.family));
  const { run } = executed;
  run.claims = claimsBlock(checkClaims(run, claimsPlan.checks, s.family), s.family);
  writeRunAtomically(s.file, run);
  if (run.status === 'interrupted') return { run, stop: SIGNAL_EXIT[executed.signal ?? 'SIGINT'] };
  return { run };
}
