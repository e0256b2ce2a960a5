/**
 * The measurers' verdict defaults by kind (verdict-defaults.ts), which a
 * view of stored runs reads without loading the measurers' records: each
 * record's verdict is its kind's entry, and a view's verdict read from them
 * is the registry's, for runs that saved their verdict, runs that did not,
 * runs of several measurers, and a kind this rtbench lacks.
 */
import type { VerdictBasis } from '@rtbench/core/schema';
import { describe, expect, it } from 'vitest';
import { MEASURER_RECORDS } from '../src/index.ts';
import { MEASURER_VERDICTS, UnknownMeasurer, verdictOfRuns, type EngineLookup } from '../src/verdict-defaults.ts';
import { LOCKSTEP_RECORD } from '../src/lockstep.ts';
import { DUET_RECORD } from '../src/duet.ts';
import { HOST_TIMED_RECORD } from '../src/host-timed.ts';
import { INSTRUCTIONS_RECORD } from '../src/instructions.ts';
import { PROCESSES_RECORD } from '../src/processes.ts';
import { REQUEST_CPU_RECORD } from '../src/request-cpu.ts';

const RECORDS = [LOCKSTEP_RECORD, PROCESSES_RECORD, DUET_RECORD, INSTRUCTIONS_RECORD, HOST_TIMED_RECORD, REQUEST_CPU_RECORD];

/** A run as a view's verdict reads it: its measurer, a verdict it saved (or none), its variants' engines. */
const run = (measurer: string | undefined, engines: string[], verdict?: { threshold: number; confidence: number }): VerdictBasis =>
  ({ options: { ...(measurer ? { measurer } : {}), ...(verdict ? { verdict } : {}) }, variants: engines.map((engine) => ({ engine })) }) as unknown as VerdictBasis;

/** Engines that declare a count threshold (a V8 at 2%), and one that declares none. */
const engines: EngineLookup = (id) => (id === 'v8' ? { counting: { threshold: 0.02 } } : id === 'jsc' ? {} : undefined);

describe("the measurers' verdict defaults", () => {
  it("hold each record's verdict under its kind, and only those kinds", () => {
    expect(RECORDS.map((r) => [r.kind, MEASURER_VERDICTS.get(r.kind) === r.verdict])).toEqual(RECORDS.map((r) => [r.kind, true]));
    expect([...MEASURER_VERDICTS.keys()].sort()).toEqual([...new Set(RECORDS.map((r) => r.kind))].sort());
  });

  it("give a view of saved runs the registry's verdict", () => {
    const views = [
      [],
      [run('lockstep', ['v8'])],
      [run('instructions', ['v8', 'jsc']), run('instructions', ['jsc'])],
      [run('instructions', ['jsc'])],
      [run(undefined, ['v8'])],
      [run('lockstep', ['v8']), run('instructions', ['v8'])],
      [run('duet', ['v8'], { threshold: 0.03, confidence: 0.9 }), run('duet', ['v8'])],
    ];
    const read = views.map((runs) => verdictOfRuns(runs, engines));
    expect(read).toEqual(views.map((runs) => MEASURER_RECORDS.verdictOfRuns(runs, engines)));
    expect(read.map((v) => v.threshold)).toEqual([0.01, 0.01, 0.02, 0.005, 0.01, 0.01, 0.03]);
  });

  it('refuse a kind this rtbench lacks, in the words the registry uses', () => {
    const lacking = [run('abacus', ['v8'])];
    expect(() => verdictOfRuns(lacking, engines)).toThrow(UnknownMeasurer);
    expect(() => verdictOfRuns(lacking, engines)).toThrow(/^measured by "abacus", a measurer this rtbench does not have \(it has lockstep, processes, duet, instructions, host-timed, request-cpu\)$/);
    expect(() => MEASURER_RECORDS.verdictOfRuns(lacking, engines)).toThrow(/^measured by "abacus", a measurer this rtbench does not have \(it has lockstep, processes, duet, instructions, host-timed, request-cpu\)$/);
  });
});
