/**
 * The plan port of a campaign (@rtbench/run campaign.ts): a run a planner
 * asks for, planned as bench plans one, in this command's surroundings. A
 * request with several arms is a comparison (`bench --compare`); with one, a
 * table of that variant.
 */
import type { PlanPort } from '@rtbench/run';
import { makePlan } from '../plan.ts';
import { runEnvironment } from './environment.ts';

export function planPort(): PlanPort {
  const environment = runEnvironment();
  return async ({ suite, arms, flags }) => {
    const plan = arms.length > 1 ? await makePlan(suite, flags, arms) : await makePlan(suite, { ...flags, runtime: [...arms] });
    return { suite: plan.suite, variants: plan.variants, options: { ...plan.options, command: process.argv.slice(2) }, environment };
  };
}
