/** The defaults of the default measurer (timing's), for a table and for a comparison: what the commands that measure say in their help. */
import { DEFAULT_MEASURER } from '../plan.ts';

export const BENCH_DEFAULTS = DEFAULT_MEASURER.defaults.bench;
export const COMPARE_DEFAULTS = DEFAULT_MEASURER.defaults.compare;
