/**
 * The client's latency beside CPU per request (views/cpu-per-request.ts and its
 * layouts): read from the same warm requests as CPU per request, shown with
 * how many requests were in flight and how many requests' CPU a request
 * waited for; a run saved before latency was kept shows none; the same-work
 * rule a run used is said under the table.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { cpuPerRequestSection as requestsSection } from '../src/views/cpu-per-request.ts';
import { cpuPerRequestMarkdown as requestsMarkdown, cpuPerRequestTerminal as requestsTerminal } from '../src/reporters/cpu-per-request.ts';
import { caseRequests } from '../src/html/cpu-per-request-data.ts';

const plain = (s: string): string => s;

/** A run of two arms whose every request waited behind `queue` requests' CPU, its own included. */
function queuedRun(queue: number, sameWork: 'masked' | 'strict' = 'masked'): RunRecord {
  const run = syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.5 }], rounds: 6, requests: 81, seed: 3 });
  for (const result of run.results) {
    for (const round of result.rounds) {
      round.requests = { ...round.requests!, kinds: round.samples.map(() => 'page'), sameWork, latencyMs: round.samples.map((ms) => ms * queue), ...(queue > 1 ? { concurrency: queue } : {}) };
    }
  }
  return run;
}

describe('client latency beside CPU per request', () => {
  it('latency p50 and p99 come from the same warm requests, and their ratio to CPU p50 reads the queue', () => {
    const section = requestsSection(queuedRun(10))!;
    expect(section.concurrency).toBe(10);
    for (const row of section.rows) {
      const cpu = row.distribution!.quantiles;
      expect(row.latency!.p50.value).toBeCloseTo(cpu.p50.value * 10, 6);
      expect(row.latency!.p99.value).toBeCloseTo(cpu.p99.value * 10, 6);
      expect(row.latency!.p50.ci).toBeDefined();
    }
    const lines = requestsTerminal(section, 100, plain, plain);
    expect(lines).toContain('Client latency beside CPU per request (ms), 10 requests in flight to each server');
    expect(lines.filter((l) => / {2}(node|bun) .* 10\.0×$/.test(l))).toHaveLength(2);
    // Within a 100-column terminal, the latency grid and its key included.
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(100);
    expect(lines.join('\n')).toContain('around each wave');
    const md = requestsMarkdown(section).join('\n');
    expect(md).toContain('| latency p50 | latency p99 | CPU p50 | p50 ÷ CPU |');
    expect(md).toMatch(/\| node \|.*\| 10\.0× \|/);    // The page's table beside the curve carries the same texts.
    const run = queuedRun(10);
    const page = caseRequests(section, section.rows[0]!.caseId, run.results.map((result) => ({ key: result.variantId, variantId: result.variantId, result })))!;
    const latencyP50 = page.heads.findIndex((h) => h.text === 'latency p50');
    expect(page.curves.map((c) => c.cells[latencyP50])).toEqual(section.rows.map((r) => `${r.latency!.p50.value.toPrecision(3)} [${r.latency!.p50.ci![0].toPrecision(3)}–${r.latency!.p50.ci![1].toPrecision(3)}]`));
  });

  it('one at a time, the heading says so; a run saved before latency was kept has no latency grid and no rule', () => {
    expect(requestsTerminal(requestsSection(queuedRun(1))!, 100, plain, plain)).toContain('Client latency beside CPU per request (ms), one request at a time to each server');
    const old = requestsSection(syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }], rounds: 3, requests: 21 }))!;
    expect(old.rows[0]!.latency).toBeUndefined();
    expect(old.sameWork).toBeUndefined();
    const text = requestsTerminal(old, 100, plain, plain).join('\n');
    expect(text).not.toContain('latency');
    expect(text).not.toContain('same work');
  });

  it('the same-work rule the run used is said under the table', () => {
    expect(requestsTerminal(requestsSection(queuedRun(1, 'strict'))!, 100, plain, plain).join(' ')).toContain('every byte of every body (--same-work strict)');
    expect(requestsMarkdown(requestsSection(queuedRun(1))!).join('\n')).toContain("the responses' changing spans masked (--same-work masked)");
  });
});
