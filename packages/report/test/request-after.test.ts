/**
 * The CPU after each request (requests.afterMs: from the host's read once
 * the threads were idle to the next request's start) beside CPU per
 * request: the mean per pooled request, the median over processes, in its
 * own column with the key saying what it is; a run saved without it shows
 * neither.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '@rtbench/measurer-records';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { cpuPerRequestSection } from '../src/views/cpu-per-request.ts';
import { cpuPerRequestMarkdown, cpuPerRequestTerminal } from '../src/reporters/cpu-per-request.ts';

const plain = (s: string): string => s;

/** Two arms whose requests left `after(round, index)` ms for later; the first requests a process served left 50 ms (a warm-up's, not pooled). */
function runWithAfter(after: (round: number, index: number) => number): RunRecord {
  const run = syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.5 }], rounds: 5, requests: 41, seed: 4 });
  for (const result of run.results) {
    result.rounds.forEach((round, r) => {
      round.requests = { ...requestsOf(round)!, phases: { steadyFrom: 10 }, afterMs: round.samples.map((_, i) => (i < 10 ? 50 : after(r, i))) };
    });
  }
  return run;
}

describe('the CPU after a request', () => {
  it("per process the mean over its steady requests, the median over processes: the warm-up's left out", () => {
    // Process r leaves r ms after every other steady request: its mean is r / 2 (near enough: 31 steady requests, 16 even).
    const section = cpuPerRequestSection(runWithAfter((r, i) => (i % 2 === 0 ? r : 0)))!;
    const means = [0, 1, 2, 3, 4].map((r) => (r * 16) / 31);
    for (const row of section.rows) expect(row.after).toBeCloseTo(means[2]!, 9);
    const lines = cpuPerRequestTerminal(section, 140, plain, plain);
    const text = lines.join('\n');
    expect(lines.find((l) => l.includes('first'))).toMatch(/ after\b/);
    expect(text.replace(/\s+/g, ' ')).toContain('work a request left to run later, in no request\'s figure');
    expect(cpuPerRequestMarkdown(section).join('\n')).toContain(`| ${means[2]!.toPrecision(3)} |`);
  });

  it('a run saved without it, or a round that kept it for only some requests, shows no column and no key', () => {
    const old = cpuPerRequestSection(syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }], rounds: 3, requests: 21 }))!;
    expect(old.rows[0]!.after).toBeUndefined();
    const lines = cpuPerRequestTerminal(old, 140, plain, plain);
    expect(lines.find((l) => l.includes('first'))).not.toMatch(/ after\b/);
    expect(lines.join('\n')).not.toContain('left to run later');
    const partial = runWithAfter(() => 1);
    requestsOf(partial.results[0]!.rounds[0]!)!.afterMs!.pop();
    expect(cpuPerRequestSection(partial)!.rows[0]!.after).toBeUndefined();
    expect(cpuPerRequestSection(partial)!.rows[1]!.after).toBe(1);
  });
});
