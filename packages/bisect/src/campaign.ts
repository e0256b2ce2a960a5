/**
 * A bisect as one campaign (@rtbench/run campaign.ts), the one entry point
 * the command calls with what it parsed: the bisect's own defaults filled
 * in, the range listed, the case picked by the plan of the ends, the folder
 * opened (resumed when it holds the same question), the search run within
 * the budget and stoppable, and the answer handed back as a view. The
 * command parses, plans each step's run (the plan port) and writes the
 * answer; the lines it is told, it colours by their tone.
 */
import { join } from 'node:path';
import { TIME_PER_OP } from '@rtbench/core/schema';
import { writeFileAtomically } from '@rtbench/host';
import { bisectStepLine, budgetReachedLine, counted, formatClock, pageReporter, type BisectView } from '@rtbench/report';
import { BUDGET_EXIT, campaignFolder, CampaignBudget, INTERRUPTED_EXIT, listRange, releaseVariant, whileStoppable, type CampaignSay, type MeasurerDescriptor, type PlanFlags, type PlanPort } from '@rtbench/run';
import { UsageError } from '@rtbench/suite-loader';
import { bisectView } from './answer.ts';
import { bisectThreshold } from './defaults.ts';
import { BisectSession, removeInstalled, searchReleases } from './session.ts';
import { BisectFolder, type BisectIdentity } from './state.ts';
import { installsOf, Releases, type StepContext } from './step.ts';
import type { SearchState, StepRecord } from './types.ts';

/** What the command parsed; an option left out takes the bisect's default, or its measurer's. */
export interface BisectRequest {
  /** `node@24.0.0..node@26.10.0 [flags] [ENV=x]`, or a package's versions. */
  range: string;
  suite: string;
  filter: readonly string[];
  /** The measurer --measure named; absent: wall time, measured by `timing`. */
  measured?: MeasurerDescriptor;
  timing: MeasurerDescriptor;
  threshold?: number;
  rounds?: number;
  maxRounds?: number;
  /** --time and --budget, parsed from BISECT_DEFAULTS' when not given. */
  timePerRoundMs: number;
  budgetMs: number;
  warmupMs?: number;
  timeout?: string;
  /** --dir; else a folder under `resultsDir` named by what is bisected. */
  dir?: string;
  resultsDir: string;
  /** --html: the releases as a page, at this path or (true) in the folder. */
  html?: string | true;
  clean: boolean;
  allChanges: boolean;
}

/** What the bisect asks of the command: each step's run planned, its lines said, its answer written. */
export interface BisectPorts {
  plan: PlanPort;
  say: CampaignSay;
  answer: (view: BisectView) => void;
}

/** The rounds asked, else the measurer's for a bisect; checked with the filter before the registry is asked. */
function rounds(request: BisectRequest): { minRounds: number; maxRounds: number } {
  const { bisectRounds } = (request.measured ?? request.timing).defaults;
  const minRounds = request.rounds ?? bisectRounds.min;
  const maxRounds = request.maxRounds ?? Math.max(bisectRounds.max, minRounds);
  if (maxRounds < minRounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${minRounds}`);
  if (!request.filter.length) throw new UsageError('bisect follows one case: name it with --filter (rtbench bench <suite> --filter <text> shows which cases a filter picks)');
  return { minRounds, maxRounds };
}

/** Runs the bisect to its answer, or until its budget or a stop; its exit code (0 answered; 1 a culprit not confirmed, or undecided; BUDGET_EXIT; INTERRUPTED_EXIT). */
export async function runBisect(request: BisectRequest, ports: BisectPorts): Promise<number> {
  const { minRounds, maxRounds } = rounds(request);
  const { measured, filter, timePerRoundMs, budgetMs } = request;
  const measurer = measured ?? request.timing;
  const measure = measured?.name ?? 'time';
  const unit = (measurer.metric ?? TIME_PER_OP).unit;
  const { say, plan } = ports;

  const range = await listRange(request.range);
  const { runtime } = range;
  const first = range.tags[0]!;
  const last = range.tags.at(-1)!;
  // The ends are resolved (and installed, if need be) by the probe below, before the folder is open.
  const noteEnds = await installsOf(range, [first, last]);
  // The case: the plan of the ends picks it (and checks the suite, the filter and the variants' flags).
  const measureFlag: PlanFlags = measured ? { measure: measured.name } : {};
  const probe = await plan({ suite: request.suite, arms: [releaseVariant(range, first).id, releaseVariant(range, last).id], flags: { filter, ...measureFlag, rounds: minRounds, time: `${timePerRoundMs * minRounds}ms` } });
  if (probe.suite.cases.length !== 1) {
    const ids = probe.suite.cases.map((c) => c.id);
    throw new UsageError(`--filter ${filter.join(',')} picks ${ids.length} cases of ${probe.suite.name}; a bisect follows one${ids.length ? `: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}` : ''}`);
  }
  const suite = probe.suite.name;
  const caseId = probe.suite.cases[0]!.id;
  const threshold = bisectThreshold(measurer, request.threshold, probe.variants);
  const identity: BisectIdentity = { range: request.range, suite, caseId, measure, threshold, timePerRoundMs, warmupMs: request.warmupMs ?? 0, minRounds, maxRounds };
  const dir = campaignFolder(request.resultsDir, 'bisect', [request.range, suite, caseId, measure], request.dir);
  const folder = BisectFolder.open(dir, identity);
  const resumed = folder.state.steps.length;
  noteEnds(folder);

  const perRelease = range.plugin?.releases!.diskPerRelease;
  const mostInstalls = 2 * Math.ceil(Math.log2(range.tags.length)) + 2;
  const how = measured ? `${measured.name}${measured.needs ? ` (${measured.needs})` : ''}` : `wall time (${measurer.name})`;
  say(`bisect ${runtime}@${first}..${runtime}@${last}: ${range.tags.length} releases, ${suite} / ${caseId}, ${how}, threshold ${+(threshold * 100).toFixed(2)}%, steps of ${minRounds}–${maxRounds} paired rounds, budget ${formatClock(budgetMs)}`, 'heading');
  say(`folder ${dir}${resumed ? ` (continuing: ${resumed} measurements saved)` : ''}; a single change installs about ${mostInstalls} releases${perRelease ? ` (${perRelease} each) into the runtime cache${request.clean ? ', removed at the end (--clean)' : ''}` : ' into the library cache'}`, 'note');

  // Each step is planned as bench --compare plans two variants; rounds are set per step.
  const stepFlags: PlanFlags = { filter, ...measureFlag, ...(request.warmupMs !== undefined ? { warmup: `${request.warmupMs}ms` } : {}), ...(request.timeout ? { timeout: request.timeout } : {}) };
  const budget = new CampaignBudget(budgetMs);
  const releases = new Releases({ range, folder });
  const { started } = budget;
  const searched = await whileStoppable((line) => say(line, 'warning'), 'stopping the current step; the steps measured are saved, run the same command to continue', async (signal) => {
    const ctx: StepContext = {
      range,
      planStep: (variantIds, rounds) => plan({ suite: request.suite, arms: variantIds, flags: { ...stepFlags, rounds, time: `${timePerRoundMs * rounds}ms` } }),
      folder,
      signal,
      log: say,
    };
    const session = new BisectSession(ctx, releases, caseId, budget, {
      measuring: (older, newer, step, estimate) => {
        const repeat = step.attempt ? ` (repeat ${step.attempt}: not yet decided)` : '';
        say(`  measuring ${runtime}@${older} vs ${runtime}@${newer}: ${step.rounds} rounds${repeat}${estimate ? `, ~${formatClock(estimate)}` : ''}`, 'note');
      },
      cannotRun: (tag, reason) => say(`  ${runtime}@${tag} cannot run the case: ${reason}; skipped`, 'warning'),
    });
    const onStep = (step: StepRecord, state: SearchState): void => {
      const perRound = session.perRoundMs();
      const eta = perRound !== undefined ? `; ETA ~${formatClock(perRound * minRounds * 1.5 * state.stepsLeft)} for ~${counted(state.stepsLeft, 'more comparison')}` : '';
      say(bisectStepLine(step, { runtime, unit }), undefined, `  [${formatClock(Date.now() - started)}${eta}]`);
    };
    return searchReleases(range.tags, session.measure, { threshold, minRounds, maxRounds, follow: request.allChanges ? 'all' : 'largest', onStep });
  });
  if (searched === 'budget') {
    say(budgetReachedLine(budgetMs, counted(folder.state.steps.length, 'measurement')), 'ending');
    return BUDGET_EXIT;
  }
  if (searched === 'interrupted') return INTERRUPTED_EXIT;
  const view = await bisectView(searched, { range, folder, dir, releases, suite, caseId, measure, threshold, unit });
  ports.answer(view);
  if (view.series && request.html !== undefined) {
    const path = request.html === true ? join(dir, 'bisect.html') : request.html;
    writeFileAtomically(path, pageReporter().render(view.series, { color: false, columns: 100, plot: false }));
    say(`html report ${path}`, 'note');
  }
  say(`${folder.state.steps.length} measurements saved in ${dir} (rtbench history ${dir}; rtbench report <file>) in ${formatClock(Date.now() - started)}${resumed ? ' this time' : ''}`, 'note');
  if (request.clean) {
    const removed = removeInstalled(folder);
    if (removed) say(`--clean: removed ${counted(removed, 'release')} this bisect installed`, 'note');
  }
  const { outcome } = searched;
  if (outcome.kind === 'changes' && outcome.culprits.some((c) => !c.confirmed)) return 1;
  return outcome.kind === 'undecided' ? 1 : 0;
}
