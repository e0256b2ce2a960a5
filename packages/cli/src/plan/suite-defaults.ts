/**
 * A suite's own defaults (core suite.ts SuiteOptions) as the chosen
 * measurer's options, under what the command line gave: a suite whose cases
 * need a longer run-up says so once, and `--run-up` still overrides it.
 */
import type { SuiteOptions } from '@rtbench/core';
import { parseDurationMs } from '@rtbench/core/duration';
import { RUN_UP_OPTION as RUN_UP } from '@rtbench/core/suite';
import type { MeasurerDescriptor, MeasurerOptionValue } from '@rtbench/measurers';
import { UsageError } from '../errors.ts';

export function withSuiteDefaults(
  given: Readonly<Record<string, MeasurerOptionValue>>,
  suite: { name: string; options?: SuiteOptions | undefined } | undefined,
  measurer: Pick<MeasurerDescriptor, 'options'>,
): Readonly<Record<string, MeasurerOptionValue>> {
  const runUp = suite?.options?.runUp;
  if (runUp === undefined || given[RUN_UP] !== undefined || !measurer.options?.some((o) => o.name === RUN_UP)) return given;
  const parsed = parseDurationMs(runUp);
  if ('why' in parsed) throw new UsageError(`suite "${suite!.name}" asks a run-up of ${JSON.stringify(runUp)}: ${parsed.why}`);
  return { ...given, [RUN_UP]: runUp };
}
