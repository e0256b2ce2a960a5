/**
 * The measurer a brought file runs under when the command line names none:
 * its format says which isolation its cases need (the suite loader detects
 * it), and the registry says which measurer gives that isolation.
 */
import { broughtIsolationOfEntry } from '@rtbench/suite-loader';
import type { MeasurerDescriptor } from './measurer.ts';
import { MEASURERS } from './measurers/all.ts';

/** The measurer a brought file implies, and the note that says why. */
export interface ImpliedSchedule {
  measurer: MeasurerDescriptor;
  /** What runs so, for messages: "a Node core file". */
  what: string;
  note: string;
}

/**
 * The first schedule that gives the isolation a brought file's format needs
 * (a Node core file's configurations and a Deno.bench file's benchmarks:
 * processes of their own per case); undefined for a file that needs none.
 */
export function broughtSchedule(entry: string): ImpliedSchedule | undefined {
  const need = broughtIsolationOfEntry(entry);
  const measurer = need ? MEASURERS.withIsolation(need.needs) : undefined;
  if (!need || !measurer) return undefined;
  return { measurer, what: need.what, note: `${need.what}: ${need.why} (--schedule ${measurer.name})` };
}
