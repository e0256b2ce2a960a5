/**
 * A fixed-iteration lockstep job (instruction counts read a counter around
 * each sample): exactly W calls of warmup, then exactly n calls per
 * `sample <n>`, whatever the clock says; `collect` empties the young
 * generation between samples.
 */
import { describe, expect, it } from 'vitest';
import { bench, suite } from '../src/index.ts';
import { executeJob } from '../src/execute.ts';
import { COLLECT_COMMAND, parseSampleCommand, sampleCommand, type RuntimeMessage } from '../src/protocol.ts';

describe('fixed-iteration lockstep job', () => {
  it('makes exactly the calls it is asked for: the first, W of warmup, then n per sample', async () => {
    let calls = 0;
    const counting = suite('count', () => {
      bench('calls', () => ++calls);
    });
    const commands = [sampleCommand(3), sampleCommand(), sampleCommand(5), 'finish'];
    const messages: RuntimeMessage[] = [];
    const seen: number[] = [];
    let tick = 0;
    await executeJob(
      counting,
      { protocol: 1, kind: 'paced', caseId: 'calls', options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 70 } },
      {
        facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: false },
        clock: { name: 'ticks', now: () => (tick += 1000) },
        emit: (m) => messages.push(m),
        commands: async () => {
          seen.push(calls);
          return commands.shift();
        },
      },
    );
    // Before each command: the first call and 70 of warmup (in batches), then +3, +70 (bare sample: W), +5.
    expect(seen).toEqual([71, 74, 144, 149]);
    expect(messages.find((m) => m.type === 'ready')).toMatchObject({ warmupIterations: 70 });
    expect(messages.filter((m) => m.type === 'sample').map((m) => (m as { index: number }).index)).toEqual([0, 1, 2]);
    // Counted, not timed: no clock is read around the calls (its values would vary what the process allocates).
    expect(messages.filter((m) => m.type === 'sample').map((m) => (m as { ns: number }).ns)).toEqual([0, 0, 0]);
    const result = messages.find((m) => m.type === 'result');
    expect(result).toMatchObject({ type: 'result', warmupIterations: 70 });
    expect((result as { samples: number[] }).samples).toHaveLength(3);
  });

  it('empties the young generation on `collect`, answering as a sample of no calls that the result does not hold', async () => {
    let calls = 0;
    const order: string[] = [];
    const counting = suite('count', () => {
      bench('calls', () => ++calls);
    });
    const commands = [COLLECT_COMMAND, sampleCommand(1), COLLECT_COMMAND, sampleCommand(0), 'finish'];
    const messages: RuntimeMessage[] = [];
    await executeJob(
      counting,
      { protocol: 1, kind: 'paced', caseId: 'calls', options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 4 } },
      {
        facts: { runtime: 'node', version: process.versions.node, engine: 'v8', engineVersion: process.versions.v8, gcExposed: true },
        clock: { name: 'ticks', now: () => 0 },
        emit: (m) => messages.push(m),
        collectYoung: () => order.push(`young at ${calls}`),
        commands: async () => commands.shift(),
      },
    );
    // The first call and 4 of warmup, then: collect, 1 call, collect, none.
    expect(order).toEqual(['young at 5', 'young at 6']);
    expect(calls).toBe(6);
    // Numbered with the samples, as the host's reader checks.
    expect(messages.filter((m) => m.type === 'sample').map((m) => (m as { index: number }).index)).toEqual([0, 1, 2, 3]);
    expect((messages.find((m) => m.type === 'result') as { samples: number[] }).samples).toHaveLength(2);
  });

  it('reads `sample <n>` and nothing else as a sample command', () => {
    expect(parseSampleCommand('sample')).toBeUndefined();
    expect(parseSampleCommand(sampleCommand(120))).toBe(120);
    expect(parseSampleCommand('sample 0')).toBe(0);
    for (const other of ['finish', 'sample -3', 'sample 1e3', 'sample ', 'sample 12345678901', 'samples 3']) expect(parseSampleCommand(other), other).toBeNull();
  });
});
