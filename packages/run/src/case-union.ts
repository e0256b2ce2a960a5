/**
 * A brought file's cases as every runtime that loaded it listed them: a file
 * may define a case on some runtimes only (`if (typeof Deno !== 'undefined')
 * bench(…)`), so the run's cases are the union, in the order the runtimes
 * listed them, and each case a runtime lacks is a cell left unsupported there
 * (run.ts), named in one line rather than dropped.
 */
import type { CaseListing } from '@rtbench/core/protocol';

/** What one runtime process listed, for the variants it stands for (those sharing its binary and environment). */
export interface RuntimeListing {
  variants: readonly string[];
  cases: readonly CaseListing[];
}

/** Case id → the variants whose runtime does not define it. */
export type AbsentCases = Readonly<Record<string, readonly string[]>>;

export interface CaseUnion {
  cases: CaseListing[];
  absent: AbsentCases;
  /** One line naming the cases only some runtimes define, and where; undefined when every runtime defines every case. */
  line?: string;
}

export function caseUnion(listings: readonly RuntimeListing[]): CaseUnion {
  const cases = new Map<string, CaseListing>();
  for (const listing of listings) for (const c of listing.cases) if (!cases.has(c.id)) cases.set(c.id, c);
  const absent: Record<string, string[]> = {};
  // Cases defined on the same variants share one clause of the line.
  const clauses = new Map<string, string[]>();
  for (const c of cases.values()) {
    const lacking = listings.filter((l) => !l.cases.some((o) => o.id === c.id));
    if (!lacking.length) continue;
    absent[c.id] = lacking.flatMap((l) => l.variants);
    const where = listings.filter((l) => !lacking.includes(l)).flatMap((l) => l.variants).join(', ');
    clauses.set(where, [...(clauses.get(where) ?? []), JSON.stringify(c.name)]);
  }
  if (!clauses.size) return { cases: [...cases.values()], absent };
  const line = `cases defined on some runtimes only (unsupported elsewhere): ${[...clauses].map(([where, names]) => `${names.join(', ')} on ${where} only`).join('; ')}`;
  return { cases: [...cases.values()], absent, line };
}
