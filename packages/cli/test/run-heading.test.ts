/** The line that opens a run fits the terminal: four runtimes with their versions and an adaptive plan took 114 columns. */
import { describe, expect, it } from 'vitest';
import { runHeading } from '../src/run/execute.ts';

type HeadingPlan = Parameters<typeof runHeading>[0];

const SGR = /\x1b\[[0-9;]*m/g;
const resolved = (id: string, version: string) => ({ spec: { id }, target: { version } });

function plan(variants: unknown[], cases = 16): HeadingPlan {
  return {
    suite: { name: 'json-reviver', cases: Array.from({ length: cases }, (_, i) => ({ id: `c${i}` })) },
    variants,
    options: { roundPlan: { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 30 } } },
  } as unknown as HeadingPlan;
}

describe('the line that opens a run', () => {
  it('names the suite, its cases, each variant with its version and the rounds, within 100 columns', () => {
    const lines = runHeading(plan([resolved('node', '26.10.0'), resolved('deno', '2.9.6'), resolved('bun', '1.4.5'), resolved('workerd', '2026-11-17')]), 100).map((l) => l.replace(SGR, ''));
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe('json-reviver: 16 cases × node (26.10.0), deno (2.9.6), bun (1.4.5), workerd (2026-11-17) × 6–30 rounds (until ±2%)');
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
  });

  it('stays one line where it fits, and says a variant that could not be found', () => {
    expect(runHeading(plan([resolved('node', '26.10.0'), { spec: { id: 'node@24.0.0' }, reason: 'not installed' }], 1), 100).map((l) => l.replace(SGR, ''))).toEqual(['json-reviver: 1 case × node (26.10.0), node@24.0.0 (unavailable) × 6–30 rounds (until ±2%)']);
  });
});
