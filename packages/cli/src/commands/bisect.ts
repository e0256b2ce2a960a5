/**
 * `rtbench bisect node@24.0.0..node@26.10.0 <suite|file> --filter <case>`:
 * which release changed the case, and with which engine version. parse ->
 * the bisect's planner (@rtbench/bisect bisectCampaign: the releases listed,
 * the case picked) held by the campaign loop (@rtbench/run runCampaign: the
 * search asking for measurements, each planned here as `bench --compare` of
 * two releases and saved in the bisect's folder) -> the answer, through the
 * reporter map.
 */
import { BISECT_DEFAULTS, bisectCampaign } from '@rtbench/bisect';
import { runCampaign } from '@rtbench/campaign';
import { parseDuration, parsePercent, parsePositiveInt } from '../args/options.ts';
import { campaignListener } from '../emit/campaign.ts';
import { BISECT_WORDS } from '../emit/campaign-lines.ts';
import { listingFormat, writeView, type ListingFlags } from '../listing.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER, parseMeasure } from '../plan.ts';
import { planPort } from '../run/plan-port.ts';
import { bisectRounds } from '@rtbench/bisect';
import { MEASURERS } from '@rtbench/measurers';
import { runtimeEngines } from '@rtbench/runtime-registry';
import type { OptionSpec } from '../args/args.ts';
import { MAX_MEMORY_OPTION } from '../args/memory-option.ts';
import { command } from '../options/command.ts';
import { FIXED_WARMUP_OPTION, GLOBAL_OPTIONS, pct, PRINTING_OPTIONS, TIMING_THRESHOLD } from '../options/shared.ts';
import { COMPARE_DEFAULTS } from '../options/timing.ts';

interface BisectFlags extends ListingFlags {
  filter?: readonly string[];
  measure?: string;
  threshold?: string | number;
  time?: string;
  warmup?: string;
  fixedWarmup?: boolean;
  rounds?: string | number;
  maxRounds?: string | number;
  budget?: string;
  dir?: string;
  html?: string | true;
  clean?: boolean;
  allChanges?: boolean;
  timeout?: string;
}

async function bisectCommand(range: string, suite: string, flags: BisectFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const measured = parseMeasure(flags.measure);
  const budgetMs = flags.budget !== undefined ? parseDuration(flags.budget, '--budget') : BISECT_DEFAULTS.budgetMs;
  const planner = await bisectCampaign(
    {
      range,
      suite,
      filter: flags.filter ?? [],
      ...(measured ? { measured } : {}),
      timing: DEFAULT_MEASURER,
      ...(flags.threshold !== undefined ? { threshold: parsePercent(flags.threshold, '--threshold') } : {}),
      ...(flags.rounds !== undefined ? { rounds: parsePositiveInt(flags.rounds, '--rounds') } : {}),
      ...(flags.maxRounds !== undefined ? { maxRounds: parsePositiveInt(flags.maxRounds, '--max-rounds') } : {}),
      ...(flags.time !== undefined ? { timePerRoundMs: parseDuration(flags.time, '--time') } : {}),
      ...(flags.warmup ? { warmupMs: parseDuration(flags.warmup, '--warmup') } : {}),
      ...(flags.fixedWarmup === true ? { fixedWarmup: true } : {}),
      ...(flags.timeout ? { timeout: flags.timeout } : {}),
      ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
      resultsDir,
      clean: flags.clean === true,
      allChanges: flags.allChanges === true,
    },
    planPort(),
  );
  return runCampaign(planner, { budgetMs }, campaignListener(flags, BISECT_WORDS, {
    answer: (view) => writeView(view, flags),
    ...(flags.html !== undefined ? { html: flags.html } : {}),
    page: 'bisect.html',
  }));
}

/** "; instructions 3": a bisect's rounds for each --measure measurer. */
const ownBisectRounds = (which: 'min' | 'max'): string => MEASURERS.chosenBy('measure').map((m) => `; ${m.name} ${bisectRounds(m)[which]}`).join('');

const BISECT_OPTIONS = [
  { name: 'filter', kind: 'list', value: 'pattern', help: 'The one case to follow (its id contains this text, or matches /regex/); required' },
  {
    name: 'measure',
    kind: 'value',
    value: 'what',
    help: 'time (default: lockstep sets holding both releases), or instructions: counted under valgrind, for a change the neighbours cannot move',
  },
  {
    name: 'threshold',
    kind: 'value',
    value: 'percent',
    help: `A change smaller than this is not one (default ${pct(TIMING_THRESHOLD)}; instructions: the engine's, ` +
      `${runtimeEngines().flatMap((e) => (e.counting ? [`${e.displayName} ${pct(e.counting.threshold)}`] : [])).join(', ')})`,
  },
  {
    name: 'rounds',
    kind: 'value',
    value: 'n',
    help: `Paired rounds of a comparison's first measurement; undecided, it is measured again with ` +
      `as many more (default ${bisectRounds(DEFAULT_MEASURER).min}${ownBisectRounds('min')})`,
  },
  {
    name: 'max-rounds',
    kind: 'value',
    value: 'n',
    help: `A comparison still undecided at this many rounds is reported undecided (default ${bisectRounds(DEFAULT_MEASURER).max}${ownBisectRounds('max')})`,
  },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process and round (default ${BISECT_DEFAULTS.timePerRoundMs}ms)` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${COMPARE_DEFAULTS.warmup})` },
  FIXED_WARMUP_OPTION,
  {
    name: 'budget',
    kind: 'value',
    value: 'duration',
    help: `Start no measurement that would end past this much time (default ${BISECT_DEFAULTS.budgetMs / 60_000}m); the same command continues later`,
  },
  {
    name: 'dir',
    kind: 'value',
    value: 'folder',
    help: 'Where the runs and the state are saved (default results/bisect/<range-suite-case-measure>); a bisect there with the same arguments is continued',
  },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the releases measured as an HTML chart (default <folder>/bisect.html)' },
  {
    name: 'all-changes',
    kind: 'flag',
    help: 'Follow every change beyond the threshold to its release (default: the largest, naming the smaller ones met on the way)',
  },
  { name: 'clean', kind: 'flag', help: 'At the end, remove the releases this bisect installed into the runtime cache' },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  MAX_MEMORY_OPTION,
  {
    name: 'format',
    kind: 'value',
    value: 'format',
    help: 'terminal (default: the answer, the steps, the releases as a series) or json (the search, its steps and the engines)',
    section: 'Output',
  },
  ...PRINTING_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const bisect = command({
  name: 'bisect',
  positionals: [
    { name: 'range', required: true, missing: 'name a range of releases: node@24.0.0..node@26.10.0 (flags and ENV=value may follow, quoted with it)' },
    { name: 'suite', required: true, missing: 'name a suite or a benchmark file, and the case with --filter' },
  ],
  summary: 'Find the release (and engine version) where a case got faster or slower, between two releases of one runtime',
  details: [
    "Releases come from the npm registry's list and install into the runtime cache on first use. The ends are compared first; if they differ beyond " +
      "--threshold, the range is split where the difference lies until each change sits between adjacent releases, and each is confirmed by a fresh " +
      "direct comparison. Each comparison is a paired one (bench --compare of the two releases), measured again with twice the rounds while undecided.",
    `Every measurement is saved as a run in the bisect's folder (rtbench history <folder> draws them); run the same command again after ` +
      `an interruption or the --budget to continue. Exit 0: answered; 1: a culprit not confirmed, or undecided; ${75}: budget reached.`,
  ],
  options: BISECT_OPTIONS,
  run: ([range, suite], flags) => bisectCommand(range!, suite!, flags),
});
