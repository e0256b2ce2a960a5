/**
 * `rtbench bisect node@24.0.0..node@26.10.0 <suite|file> --filter <case>`:
 * which release changed the case, and with which engine version. parse ->
 * list the releases (npm registry) -> the search (@rtbench/bisect) asks for
 * measurements -> each is planned and run as `bench --compare` of two
 * releases (@rtbench/bisect step.ts), saved in the bisect's folder -> the answer, the
 * steps, the releases as a series (history's reporters).
 */
import { join } from 'node:path';
import { TIME_PER_OP } from '@rtbench/core/schema';
import { bisectStepLine, pageReporter, counted, formatClock } from '@rtbench/report';
import { stderrColours as pc } from '../emit/colours.ts';
import { UsageError } from '../errors.ts';
import { DEFAULT_MEASURER, measureName, parseMeasure, parsePercent, type PlanFlags } from '../plan.ts';
import { BUDGET_EXIT, campaignFolder, CampaignBudget, INTERRUPTED_EXIT, whileStoppable } from '@rtbench/run';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { resultsDir } from '../paths.ts';
import { writeFileAtomically } from '@rtbench/host';
import { BISECT_DEFAULTS, bisectThreshold, BisectFolder, BisectSession, bisectView, installsOf, listRange, Releases, releaseVariant, removeInstalled, searchReleases, type BisectIdentity, type SearchState, type StepContext, type StepRecord } from '@rtbench/bisect';
import { planPort } from '../run/plan-port.ts';
import { listingFormat, writeView, type ListingFlags } from '../listing.ts';

export interface BisectFlags extends ListingFlags {
  filter?: readonly string[];
  measure?: string;
  threshold?: string | number;
  time?: string;
  warmup?: string;
  rounds?: string | number;
  maxRounds?: string | number;
  budget?: string;
  dir?: string;
  html?: string | true;
  clean?: boolean;
  allChanges?: boolean;
  timeout?: string;
}

export async function bisectCommand(rangeText: string, suiteName: string, flags: BisectFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const measured = parseMeasure(flags.measure);
  const measure = measureName(measured);
  const measurer = measured ?? DEFAULT_MEASURER;
  const d = { minRounds: measurer.defaults.bisectRounds.min, maxRounds: measurer.defaults.bisectRounds.max };
  const metric = measurer.metric ?? TIME_PER_OP;
  const asked = flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : undefined;
  const minRounds = parsePositiveInt(flags.rounds ?? d.minRounds, '--rounds');
  const maxRounds = parsePositiveInt(flags.maxRounds ?? Math.max(d.maxRounds, minRounds), '--max-rounds');
  if (maxRounds < minRounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${minRounds}`);
  const timePerRoundMs = parseDuration(flags.time ?? BISECT_DEFAULTS.timePerRound, '--time');
  const budgetMs = parseDuration(flags.budget ?? BISECT_DEFAULTS.budget, '--budget');
  if (!flags.filter?.length) throw new UsageError('bisect follows one case: name it with --filter (rtbench bench <suite> --filter <text> shows which cases a filter picks)');
  const say = (line: string): void => {
    if (!flags.quiet) process.stderr.write(`${line}\n`);
  };

  const range = await listRange(rangeText);
  const runtime = range.runtime;
  // The case: the plan of the ends picks it (and checks the suite, the filter and the variants' flags).
  const first = range.tags[0]!;
  const last = range.tags.at(-1)!;
  // The ends are resolved (and installed, if need be) by the probe below, before the folder is open.
  const noteEnds = await installsOf(range, [first, last]);
  const plan = planPort();
  const probe = await plan({ suite: suiteName, arms: [releaseVariant(range, first).id, releaseVariant(range, last).id], flags: { filter: flags.filter, ...(flags.measure ? { measure: flags.measure } : {}), rounds: minRounds, time: `${timePerRoundMs * minRounds}ms` } });
  if (probe.suite.cases.length !== 1) {
    const ids = probe.suite.cases.map((c) => c.id);
    throw new UsageError(`--filter ${flags.filter.join(',')} picks ${ids.length} cases of ${probe.suite.name}; a bisect follows one${ids.length ? `: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}` : ''}`);
  }
  const caseId = probe.suite.cases[0]!.id;
  const threshold = bisectThreshold(measurer, asked, probe.variants);
  const identity: BisectIdentity = { range: rangeText, suite: probe.suite.name, caseId, measure, threshold, timePerRoundMs, warmupMs: flags.warmup ? parseDuration(flags.warmup, '--warmup') : 0, minRounds, maxRounds };
  const dir = campaignFolder(resultsDir, 'bisect', [rangeText, probe.suite.name, caseId, measure], flags.dir);
  const folder = BisectFolder.open(dir, identity);
  const resumed = folder.state.steps.length;
  noteEnds(folder);

  const perRelease = range.plugin?.releases!.diskPerRelease;
  const mostInstalls = 2 * Math.ceil(Math.log2(range.tags.length)) + 2;
  say(
    `${pc.bold(`bisect ${runtime}@${first}..${runtime}@${last}`)}: ${range.tags.length} releases, ${probe.suite.name} / ${caseId}, ${measured ? `${measured.name}${measured.needs ? ` (${measured.needs})` : ''}` : `wall time (${measurer.name})`}, threshold ${+(threshold * 100).toFixed(2)}%, steps of ${minRounds}–${maxRounds} paired rounds, budget ${formatClock(budgetMs)}`,
  );
  say(pc.dim(`folder ${dir}${resumed ? ` (continuing: ${resumed} measurements saved)` : ''}; a single change installs about ${mostInstalls} releases${perRelease ? ` (${perRelease} each) into the runtime cache${flags.clean ? ', removed at the end (--clean)' : ''}` : ' into the library cache'}`));

  // Each step is planned as bench --compare plans two variants; rounds are set per step.
  const stepFlags: PlanFlags = { filter: flags.filter, ...(flags.measure ? { measure: flags.measure } : {}), ...(flags.warmup ? { warmup: flags.warmup } : {}), ...(flags.timeout ? { timeout: flags.timeout } : {}) };
  const budget = new CampaignBudget(budgetMs);
  const releases = new Releases({ range, folder });
  const { started } = budget;
  const stopping = pc.yellow('\ninterrupted: stopping the current step; the steps measured are saved, run the same command to continue');
  const searched = await whileStoppable(say, stopping, async (signal) => {
    const ctx: StepContext = {
      range,
      planStep: (variantIds, rounds) => plan({ suite: suiteName, arms: variantIds, flags: { ...stepFlags, rounds, time: `${timePerRoundMs * rounds}ms` } }),
      folder,
      signal,
      log: say,
    };
    const session = new BisectSession(ctx, releases, caseId, budget, {
      measuring: (older, newer, request, estimate) => {
        const repeat = request.attempt ? ` (repeat ${request.attempt}: not yet decided)` : '';
        say(pc.dim(`  measuring ${runtime}@${older} vs ${runtime}@${newer}: ${request.rounds} rounds${repeat}${estimate ? `, ~${formatClock(estimate)}` : ''}`));
      },
      cannotRun: (tag, reason) => say(pc.yellow(`  ${runtime}@${tag} cannot run the case: ${reason}; skipped`)),
    });
    const onStep = (step: StepRecord, state: SearchState): void => {
      const perRound = session.perRoundMs();
      const eta = perRound !== undefined ? `; ETA ~${formatClock(perRound * minRounds * 1.5 * state.stepsLeft)} for ~${counted(state.stepsLeft, 'more comparison')}` : '';
      say(`${bisectStepLine(step, { runtime, unit: metric.unit })}${pc.dim(`  [${formatClock(Date.now() - started)}${eta}]`)}`);
    };
    return searchReleases(range.tags, session.measure, { threshold, minRounds, maxRounds, follow: flags.allChanges ? 'all' : 'largest', onStep });
  });
  if (searched === 'budget') {
    process.stderr.write(pc.yellow(`budget of ${formatClock(budgetMs)} reached after ${folder.state.steps.length} measurements; run the same command again to continue from them (or raise --budget)\n`));
    return BUDGET_EXIT;
  }
  if (searched === 'interrupted') return INTERRUPTED_EXIT;
  const view = await bisectView(searched, { range, folder, dir, releases, suite: probe.suite.name, caseId, measure, threshold, unit: metric.unit });
  writeView(view, flags);
  if (view.series && flags.html !== undefined) {
    const path = flags.html === true ? join(dir, 'bisect.html') : flags.html;
    writeFileAtomically(path, pageReporter().render(view.series, { color: false, columns: 100, plot: false }));
    say(pc.dim(`html report ${path}`));
  }
  say(pc.dim(`${folder.state.steps.length} measurements saved in ${dir} (rtbench history ${dir}; rtbench report <file>) in ${formatClock(Date.now() - started)}${resumed ? ' this time' : ''}`));
  if (flags.clean) {
    const removed = removeInstalled(folder);
    if (removed) say(pc.dim(`--clean: removed ${counted(removed, 'release')} this bisect installed`));
  }
  const { outcome } = searched;
  if (outcome.kind === 'changes' && outcome.culprits.some((c) => !c.confirmed)) return 1;
  return outcome.kind === 'undecided' ? 1 : 0;
}
