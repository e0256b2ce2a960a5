/**
 * The view as JSON: every number a renderer shows, plus the run it came from
 * with its raw samples (an unpaired comparison carries both runs).
 */
import type { Reporter } from './reporter.ts';

export const jsonReporter: Reporter = {
  format: 'json',
  description: 'the view as JSON (statistics, ratios, verdicts, notes and the run with raw samples)',
  extension: 'json',
  render(view) {
    // `run` is runs[0].run in a comparison: written once, under `runs`.
    const data = view.kind === 'comparison' ? { ...view, run: undefined } : view;
    return `${JSON.stringify(data)}\n`;
  },
};
