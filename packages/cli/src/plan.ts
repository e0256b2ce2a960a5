/**
 * From arguments to a plan: the suite's cases, the variants, the measurer,
 * the round plan and the per-process budget. `bench` (a table) and `bench
 * --compare` (verdicts) make their plans here and differ only in defaults and
 * the rounds' order; the defaults are the measurer's (its descriptor's
 * defaults: timing's for the schedules, instruction counts' own rounds and
 * limit). The plan holds the measurer, parsed once.
 */
import { counted } from '@rtbench/report';
import type { CaseListing } from '@rtbench/core/protocol';
import { MIN_UNITS } from '@rtbench/stats';
import { refusedOn } from '@rtbench/host/platform';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from '@rtbench/runtime-registry';
import { cacheDir } from './paths.ts';
import { parseCompareArms } from './compare/arms.ts';
import { COMPARE_USAGE } from './compare/usage.ts';
import { prefixedOnce, UsageError } from './errors.ts';
import { parseDuration, parsePercent, parsePositiveInt } from './args/options.ts';
import { type AbsentCases, type PlanFlags, type RoundPlan, type RunOptions, roundsPerArm } from '@rtbench/run';
import { parseRuntimeList } from '@rtbench/arms';
import {
  kindOf,
  longestWarmupMs,
  MeasurerRefused,
  MEASURERS,
  type MeasurementNeed,
  type MeasurerDescriptor,
  type MeasurerOptionValue,
  type PreparedMeasurer,
} from '@rtbench/measurers';
import { DEFAULT_RUNTIMES } from '@rtbench/runtime-registry';
import { broughtFileOf, filterCases, isBroughtEntry, loadSuite, locateSuite, type SuiteLocation } from '@rtbench/suite-loader';
import { broughtCompareBudget } from './plan/brought-defaults.ts';
import { withSuiteDefaults } from './plan/suite-defaults.ts';
import { refusingVariants } from './plan/refused-variants.ts';
import { machinePlanHost, type PlanHost } from './plan/plan-host.ts';
import { parseShard, shardCases } from './shards/shard.ts';

/**
 * A watched warmup may run up to this many times --warmup when that is past the engine's maximum (run steady-rule.ts);
 * a kept case's rewarm at most --warmup times it.
 */
export const WARMUP_CAP_FACTOR = 3;

/** What `--measure` names besides time (the default, taken as --schedule says): the measurers chosen by --measure. */
const MEASURED = MEASURERS.chosenBy('measure');

/** `--measure`: undefined for time (the default), else the measurer it names (instructions). */
export function parseMeasure(text: string | undefined): MeasurerDescriptor | undefined {
  const what = (text ?? 'time').trim();
  if (what === 'time') return undefined;
  const measurer = MEASURED.find((m) => m.name === what);
  if (!measurer) throw new UsageError(`--measure ${text}: expected time (the default) or ` +
    `${MEASURED.map((m) => `${m.name} (${m.measures}${m.needs ? `, under ${m.needs}` : ''})`).join(' or ')}`);
  return measurer;
}

/** The default measurer: the first --schedule (lockstep); its defaults are timing's. */
export const DEFAULT_MEASURER: MeasurerDescriptor = MEASURERS.chosenBy('schedule')[0]!;

export interface Plan {
  /** Native suites' cases are their specs (host-timed ones are run from them); a brought file's are as its runtime listed them. */
  suite: SuiteLocation & { cases: CaseListing[]; absent?: AbsentCases };
  variants: (ResolvedVariant | UnavailableVariant)[];
  options: Omit<RunOptions, 'command'>;
  /** Why a comparison of these fixed rounds can decide nothing: bench warns of it; a planner that adds or pools sets says its own. */
  fewRounds?: string;
}

/** Whether the flags ask for adaptive rounds (a target, a most, a wall time). */
const asksAdaptive = (flags: PlanFlags): boolean =>
  flags.target !== undefined || flags.maxRounds !== undefined || flags.maxTime !== undefined || flags.stop !== undefined;

/**
 * `--stop decided`'s fewest process pairs when --rounds is not given,
 * counted in pairs since an interval counts them (a comparison's two sets
 * per process: 10 rounds). A table: 4, which by simulation from saved
 * default tables decides as many cells as 5 in fewer case-rounds; a
 * comparison: 5, the design measured against the 30-set one
 * (docs/measurements/stopping.md).
 */
export const DECIDED_MIN_PAIRS = { bench: 4, compare: 5 } as const;

/** `--stop`: 'decided', or undefined for the precision target (the default). */
function stopRule(stop: string | undefined): 'decided' | undefined {
  if (stop === undefined || stop === 'precise') return undefined;
  if (stop === 'decided') return 'decided';
  throw new UsageError(`--stop must be precise or decided, not "${stop}"`);
}

/**
 * The round plan from the flags and the measurer's defaults: fixed rounds, or
 * adaptive from a minimum. `roundsPerProcess`: the rounds a process serves
 * (sets that share processes count as one pair).
 */
export function roundPlanFrom(flags: PlanFlags, compare: boolean, measurer: MeasurerDescriptor = DEFAULT_MEASURER, roundsPerProcess = 1): RoundPlan {
  const defaults = measurer.defaults[compare ? 'compare' : 'bench'];
  const rule = stopRule(flags.stop);
  const decidedRounds = rule ? Math.min(defaults.rounds, DECIDED_MIN_PAIRS[compare ? 'compare' : 'bench'] * roundsPerProcess) : defaults.rounds;
  const rounds = parsePositiveInt(flags.rounds ?? decidedRounds, '--rounds');
  const order = compare ? 'balanced' : 'shuffled';
  // A table of times is adaptive unless --rounds fixes it; a comparison, and a measurer of fixed rounds, only when asked.
  const adaptive = asksAdaptive(flags) || (defaults.adaptive === 'unless-fixed' && flags.rounds === undefined);
  if (!adaptive) return { order, rounds };
  const target = flags.target !== undefined ? parsePercent(flags.target, '--target') : defaults.target;
  if (target <= 0) throw new UsageError('--target must be more than 0%');
  // A comparison under the rule draws no more rounds for a case than the fixed
  // design gives it: a 2–3% change the sequence cannot place by then takes the
  // fixed design's time at most, not twice it (docs/measurements/stopping.md).
  const most = compare && rule ? defaults.rounds : defaults.maxRounds;
  const maxRounds = parsePositiveInt(flags.maxRounds ?? Math.max(rounds, most), '--max-rounds');
  if (maxRounds < rounds) throw new UsageError(`--max-rounds ${maxRounds} is below --rounds ${rounds}`);
  const maxTime = flags.maxTime ?? defaults.maxTime;
  return { order, rounds, adaptive: { target, maxRounds, ...(maxTime ? { budgetMs: parseDuration(maxTime, '--max-time') } : {}), ...(rule ? { rule } : {}) } };
}

/**
 * The sampling time per arm over the plan's starting rounds. `--time` is the
 * fixed design's, spread over its rounds; a rule that starts from fewer
 * rounds of its own choosing (`--stop decided` without --rounds) samples each
 * round as long as the fixed design's, not the whole --time over its few.
 */
export function startingTimeMs(timeMs: number, roundPlan: RoundPlan, flags: PlanFlags, fixedRounds: number): number {
  const ruleChoseRounds = roundPlan.adaptive?.rule === 'decided' && flags.rounds === undefined;
  return ruleChoseRounds ? (timeMs * roundPlan.rounds) / fixedRounds : timeMs;
}

/**
 * Why a comparison of these rounds can decide nothing, if it cannot: an interval counts independent process pairs
 * (rounds that share processes count once), and fixed rounds give fewer than MIN_UNITS.
 */
export function fewRoundsLine(roundPlan: RoundPlan, roundsPerProcess = 1): string | undefined {
  const pairs = Math.ceil(roundPlan.rounds / roundsPerProcess);
  if (pairs >= MIN_UNITS || roundPlan.adaptive) return undefined;
  return `--rounds ${roundPlan.rounds}${roundsPerProcess > 1 ? ` with ${roundsPerProcess} rounds per process` : ''}: ` +
    `${counted(pairs, 'independent process pair')}, fewer than the ${MIN_UNITS} an interval needs; every ratio will be inconclusive`;
}

/** A measurer that cannot work on this platform, refused in one line that names the platform and the way out (exit 2). */
function refuseOnPlatform(measurer: MeasurerDescriptor, platform: string): void {
  const refused = refusedOn(`${measurer.name} (${measurer.measures})`, measurer.platforms, platform);
  if (refused) throw new UsageError(refused);
}

/** `host`: the machine's platform, runtime store, pins and listing, given as a value (a test plans against a fake store). */
export async function makePlan(suiteName: string, given: PlanFlags, compareArms?: readonly string[], host: PlanHost = machinePlanHost()): Promise<Plan> {
  const { platform } = host;
  const compare = compareArms !== undefined;
  if (compare && given.runtime !== undefined) throw new UsageError(`use either --runtime (a table) or --compare (a verdict), not both: ${COMPARE_USAGE}`);
  const location = locateSuite(suiteName, given.brought);
  const measured = parseMeasure(given.measure);
  // A brought file's comparison may have a budget of its own (a Node core file's: plan/brought-defaults.ts).
  const budget = compare && measured === undefined ? broughtCompareBudget(location.entry, given) : { flags: given };
  // Said once the file has bundled and listed its cases: a file refused before that gets its one line alone.
  const notes: string[] = [...(location.notes ?? []), ...(budget.note ? [budget.note] : [])];
  const flags = budget.flags;
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const specs = compare ? parseCompareArms(compareArms) : parseRuntimeList((flags.runtime ?? DEFAULT_RUNTIMES).join(','));
  // Several --filter are one list, as commas make it.
  const filter = flags.filter?.join(',');
  const pick = (listed: readonly CaseListing[]): CaseListing[] => {
    const filtered = filterCases(listed, filter);
    return shard ? shardCases(filtered, shard) : filtered;
  };
  // A native suite's cases are listed on the host before anything is resolved: their kind may choose the measurer
  // (host-timed, request-shaped). A brought file's are listed in a runtime, later; they run inside it.
  const loaded = isBroughtEntry(location.entry) ? undefined : await loadSuite(location);
  const native = loaded && pick(loaded.cases);
  const kind = compare ? 'compare' : 'bench';
  // The measurer is chosen, refused on this platform, and given its own options and tools (valgrind) once, before anything is resolved or run.
  const { measurer, note, prepared } = refusedAsUsage(() => {
    const choice = MEASURERS.choose({ measured, schedule: flags.schedule, suite: { ...location, cases: native } });
    refuseOnPlatform(choice.measurer, platform);
    return {
      ...choice,
      prepared: MEASURERS.prepare(choice.measurer, withSuiteDefaults(flags.measurerOptions ?? {}, loaded?.suite, choice.measurer), {
        mode: kind,
        cacheDir,
        ...(flags.roundsPerProcess !== undefined ? { roundsPerProcess: flags.roundsPerProcess } : {}),
      }),
    };
  });
  if (note) notes.push(note);
  const defaults = measurer.defaults[kind];
  // A suite's own measurer may run a fixed number of rounds (one round is a whole server or program start).
  if (measurer.chosenBy === 'suite' && defaults.adaptive === 'never' && asksAdaptive(flags)) {
    throw new UsageError(`${location.name} is ${kindOf(measurer)}: it runs a fixed number of rounds, ` +
      `so --target, --max-rounds and --max-time do not apply (use --rounds)`);
  }
  const roundPlan = roundPlanFrom(flags, compare, measurer, prepared.roundsPerProcess);
  const timeMs = startingTimeMs(flags.timeMs ?? parseDuration(flags.time ?? defaults.time, '--time'), roundPlan, flags, defaults.rounds);
  // --warmup is the watched warmup's floor; it runs on until the batch times
  // are steady (run steady-rule.ts), unless --fixed-warmup makes it the whole
  // warmup (then no floor: the run records a fixed warmup).
  const warmupFloorMs = flags.warmupMs ?? parseDuration(flags.warmup ?? defaults.warmup, '--warmup');
  const warmupMinMs = flags.fixedWarmup === true ? undefined : warmupFloorMs;
  const warmupMs = flags.fixedWarmup === true ? warmupFloorMs : warmupFloorMs * WARMUP_CAP_FACTOR;
  const samplingMs = timeMs / roundPlan.rounds;
  // The default leaves room for a case that never settles (its engine's
  // maximum: run's steady-rule.ts); capped where Node's timers overflow (2^31-1
  // ms, 24.8 days) and would fire at once.
  const defaultTimeoutMs = defaults.timeout
    ? parseDuration(defaults.timeout, '--timeout')
    : Math.min(2 ** 31 - 1, Math.max(60_000, 20 * (longestWarmupMs(warmupMs) + samplingMs)));
  const timeoutMs = flags.timeout ? parseDuration(flags.timeout, '--timeout') : defaultTimeoutMs;
  // A user's shorter time-out (to end hangs sooner) is theirs; one that not even the shortest warmup fits is refused.
  if (flags.timeout && timeoutMs <= warmupFloorMs + samplingMs) {
    throw new UsageError(`--timeout ${flags.timeout} is not longer than what each process is asked to run (at least ` +
      `${warmupFloorMs} ms of warmup + ${+samplingMs.toFixed(3)} ms of sampling): every process would be killed`);
  }
  const seed = flags.seed !== undefined ? parsePositiveInt(flags.seed, '--seed') : (Date.now() % 2 ** 31) + 1;

  // A table says it in each cell ("no interval: 2 process pairs"); a comparison, whose verdicts are the point, says it first.
  const fewRounds = compare ? fewRoundsLine(roundPlan, prepared.roundsPerProcess) : undefined;
  // A variant the measurer cannot measure (an engine that declares no way to be counted) is unavailable, as one whose runtime is missing.
  const resolved = (await Promise.all(specs.map((spec) => host.resolveVariant(spec)))).map((v): ResolvedVariant | UnavailableVariant => {
    const refused = isResolved(v) ? measurer.refuses?.(v) : undefined;
    return refused === undefined ? v : { spec: v.spec, plugin: v.plugin, reason: refused, kind: 'measurer' };
  });
  // A comparison without an arm, a table of none, or a runtime RTBENCH_NO_INSTALL kept out: refused before running anything.
  const refuse = (vs: readonly (ResolvedVariant | UnavailableVariant)[]): void => {
    const refused = refusingVariants(vs, { compare, installs: host.installsOnDemand() });
    // Arms refused only because the app's build failed refuse this run, not the command: another suite's may build.
    if (refused.length) throw new UsageError(refused.map(unavailableLine), { ofRun: refused.every((v) => v.kind === 'build') });
  };
  refuse(resolved);

  // Packages an arm pins (react@18.3.1): checked against the suite's imports and installed, before a brought file is listed or anything runs.
  // An app's build that failed costs only the arms serving it, failed as unavailable ones are: refused as they are when none is left.
  const buildFailed = new Map((await host.pinPackages(location, resolved)).map((v) => [v.spec.id, v]));
  const variants = resolved.map((v) => buildFailed.get(v.spec.id) ?? v);
  refuse(variants);
  const listed = native ? undefined : await listInRuntime(host, location, variants.filter(isResolved));
  const cases = native ?? pick(listed!.cases);
  // The compatibility a Worker is served with is said when a runtime that serves modules runs it.
  const servesModules = variants.some((v) => isResolved(v) && v.plugin.programs.kind === 'server');
  for (const note of [...notes, ...(servesModules ? (location.servedModuleNotes ?? []) : [])]) process.stderr.write(`note: ${note}\n`);
  // Rounds and time count per arm: a measurer that samples two arms a round (a duet) runs as many more rounds as that takes.
  const perArm = roundsPerArm({ roundPlan, timeMs }, measurer.roundsPerPair?.(variants.filter(isResolved).length) ?? 1);
  return {
    suite: { ...location, cases, ...(listed && Object.keys(listed.absent).length ? { absent: listed.absent } : {}) },
    variants,
    ...(fewRounds ? { fewRounds } : {}),
    options: {
      warmupMs,
      ...(warmupMinMs !== undefined ? { warmupMinMs } : {}),
      timeoutMs,
      ...measurementNeeds(flags.metrics),
      ...(filter ? { filter } : {}),
      ...(shard ? { shard } : {}),
      seed,
      mode: kind,
      ...perArm,
      measurer,
      prepared,
    },
  };
}

/**
 * What the view asked for needs of the measurement (the measurer maps it to its setup): the memory view, resident
 * memory after a full collection; the GC view, collections counted where a runtime counts them only in a log.
 */
function measurementNeeds(metrics: string | undefined): { needs?: MeasurementNeed[] } {
  return metrics === 'memory' ? { needs: ['settled-memory'] } : metrics === 'gc' ? { needs: ['collection-counts'] } : {};
}

/** What the measurers refuse (a choice, an option, a missing tool) is a usage error. */
function refusedAsUsage<T>(choose: () => T): T {
  try {
    return choose();
  } catch (error) {
    if (error instanceof MeasurerRefused) throw new UsageError(error.message);
    throw error;
  }
}

/** A brought file's cases, listed in a process of a runtime it will run on. */
async function listInRuntime(
  host: PlanHost,
  location: SuiteLocation,
  variants: readonly ResolvedVariant[],
): Promise<{ cases: CaseListing[]; absent: AbsentCases }> {
  const listed = await host.listInRuntime(location, variants, broughtFileOf(location.entry));
  for (const note of listed.notes) process.stderr.write(`note: ${note}\n`);
  return listed;
}

/** One line for a variant that cannot run: its id, then why, never the same name twice. */
function unavailableLine(v: ResolvedVariant | UnavailableVariant): string {
  return 'reason' in v ? prefixedOnce(v.spec.id, v.reason, v.spec.runtimeSpec) : v.spec.id;
}
