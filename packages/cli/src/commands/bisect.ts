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
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { campaignListener } from '../emit/campaign.ts';
import { BISECT_WORDS } from '../emit/campaign-lines.ts';
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

export async function bisectCommand(range: string, suite: string, flags: BisectFlags): Promise<number> {
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
  return runCampaign(planner, { budgetMs }, campaignListener(flags, BISECT_WORDS, { answer: (view) => writeView(view, flags), ...(flags.html !== undefined ? { html: flags.html } : {}), page: 'bisect.html' }));
}
