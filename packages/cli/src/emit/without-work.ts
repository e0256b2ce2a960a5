/**
 * `--strict`: the cases without work (run record.ts) named in one line, said
 * after the run is saved; bench then exits 1.
 */
import { printable, counted } from '@rtbench/report';
import type { RunRecord } from '@rtbench/core/schema';

/** How many cases the line names before "and N more". */
const NAMED = 5;

/** `--strict: 2 cases without work: "empty" (node, deno), "constant" (deno) …`, or undefined when every case did work. */
export function withoutWorkLine(run: RunRecord): string | undefined {
  const variants = new Map<string, string[]>();
  for (const r of run.results) if (r.withoutWork) variants.set(r.caseId, [...(variants.get(r.caseId) ?? []), r.variantId]);
  if (!variants.size) return undefined;
  const named = [...variants].slice(0, NAMED).map(([caseId, ids]) => `"${caseId}" (${ids.join(', ')})`);
  const more = variants.size > NAMED ? ` and ${variants.size - NAMED} more` : '';
  return printable(
    `--strict: ${counted(variants.size, 'case')} without work (it returns undefined, or takes no longer than an empty call): ${named.join(', ')}${more}; the run is saved, the table marks them ∅`,
  );
}
