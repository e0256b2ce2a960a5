/**
 * The notes under CPU per request read a row's figure, not its case id: the
 * runtime's own thread clock is set beside the host's reading for the
 * JavaScript thread's figure only, whatever the case's parameters say.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { cpuPerRequestSection } from '../src/views/cpu-per-request.ts';
import { cpuPerRequestTerminal } from '../src/reporters/cpu-per-request.ts';

const plain = (s: string): string => s;

describe("the thread clock's note", () => {
  it("is said for the JavaScript thread's figure, and not for every thread's whose case id names the JavaScript thread", () => {
    const section = cpuPerRequestSection(syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }], rounds: 3, requests: 21 }))!;
    const row = section.rows[0]!;
    expect(row.figure.threads).toBe('jsThread');
    const rows = [
      { ...row, caseId: 'relay · route=plain', threadClockRatio: 1.25 },
      { ...row, caseId: 'relay · route=js thread', figure: { ...row.figure, threads: 'allThreads' as const }, threadClockRatio: 1.5 },
    ];
    const notes = cpuPerRequestTerminal({ ...section, rows }, 200, plain, plain).filter((l) => l.includes('thread clock'));
    expect(notes).toEqual(["node · relay · route=plain: its own thread clock read 1.250× the host's reading (median over requests)"]);
  });
});
