/**
 * `rtbench bisect node@24.0.0..node@26.10.0 <suite|file> --filter <case>`:
 * which release changed the case, and with which engine version. parse ->
 * the bisect (@rtbench/bisect runBisect: the releases listed, the search
 * asking for measurements, each planned here as `bench --compare` of two
 * releases and saved in the bisect's folder) -> the answer, through the
 * reporter map.
 */
import { BISECT_DEFAULTS, runBisect } from '@rtbench/bisect';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { campaignSay } from '../emit/info.ts';
import { listingFormat, writeView, type ListingFlags } from '../listing.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER, parseMeasure, parsePercent } from '../plan.ts';
import { planPort } from '../run/plan-port.ts';

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

export async function bisectCommand(range: string, suite: string, flags: BisectFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const measured = parseMeasure(flags.measure);
  return runBisect(
    {
      range,
      suite,
      filter: flags.filter ?? [],
      ...(measured ? { measured } : {}),
      timing: DEFAULT_MEASURER,
      ...(flags.threshold !== undefined ? { threshold: parsePercent(flags.threshold, '--threshold') } : {}),
      ...(flags.rounds !== undefined ? { rounds: parsePositiveInt(flags.rounds, '--rounds') } : {}),
      ...(flags.maxRounds !== undefined ? { maxRounds: parsePositiveInt(flags.maxRounds, '--max-rounds') } : {}),
      timePerRoundMs: parseDuration(flags.time ?? BISECT_DEFAULTS.timePerRound, '--time'),
      budgetMs: parseDuration(flags.budget ?? BISECT_DEFAULTS.budget, '--budget'),
      ...(flags.warmup ? { warmupMs: parseDuration(flags.warmup, '--warmup') } : {}),
      ...(flags.timeout ? { timeout: flags.timeout } : {}),
      ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
      resultsDir,
      ...(flags.html !== undefined ? { html: flags.html } : {}),
      clean: flags.clean === true,
      allChanges: flags.allChanges === true,
    },
    { plan: planPort(), say: campaignSay(flags), answer: (view) => writeView(view, flags) },
  );
}
