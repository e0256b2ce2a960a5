/**
 * Where a change in instruction count came from: the functions whose own
 * instructions per call moved most between the two arms of a decided
 * comparison, from the functions each arm's counted sample recorded
 * (run measurers/instructions.ts, callgrind's exclusive counts). A function
 * recorded on one side only executed under 0.1% of the other side's sample.
 */
import type { CaseResult } from '@rtbench/core/schema';
import { countsOf } from '@rtbench/measurer-records/readers';
import { functionName } from '../names.ts';
import type { ArmComparison, FunctionShift } from './types.ts';
import { decidedDirection } from '@rtbench/verdicts';

/** How many functions a comparison names per case. */
const SHIFTS_SHOWN = 3;

/**
 * The functions of a case's first round that recorded them: own instructions per call by short name (names.ts
 * functionName), so that a function whose signature changed between two builds is still one function, and
 * overloads are one.
 */
function recordedFunctions(result: CaseResult | undefined): Map<string, number> | undefined {
  const functions = result?.rounds.map(countsOf).find((c) => c?.functions)?.functions;
  if (!functions) return undefined;
  const byName = new Map<string, number>();
  for (const [name, perCall] of functions) {
    const short = functionName(name);
    byName.set(short, (byName.get(short) ?? 0) + perCall);
  }
  return byName;
}

/** The functions whose own instructions per call changed most, largest change first. */
function functionShifts(baseline: CaseResult | undefined, candidate: CaseResult | undefined, limit = SHIFTS_SHOWN): FunctionShift[] {
  const a = recordedFunctions(baseline);
  const b = recordedFunctions(candidate);
  if (!a || !b) return [];
  const shifts: FunctionShift[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const shift: FunctionShift = { name, ...(a.has(name) ? { baseline: a.get(name)! } : {}), ...(b.has(name) ? { candidate: b.get(name)! } : {}) };
    if (change(shift) !== 0) shifts.push(shift);
  }
  return shifts.sort((x, y) => Math.abs(change(y)) - Math.abs(change(x))).slice(0, limit);
}

/** The candidate's own instructions per call less the baseline's (an unrecorded side counts as none). */
export function change(shift: FunctionShift): number {
  return (shift.candidate ?? 0) - (shift.baseline ?? 0);
}

/** Sets `where` on every decided row of a section whose arms recorded their functions. */
export function attachWhere(section: ArmComparison, resultsOf: (caseId: string) => [CaseResult | undefined, CaseResult | undefined]): void {
  for (const row of section.cases) {
    if (!row.comparison || !decidedDirection(row.comparison)) continue;
    const shifts = functionShifts(...resultsOf(row.caseId));
    if (shifts.length) row.where = shifts;
  }
}
