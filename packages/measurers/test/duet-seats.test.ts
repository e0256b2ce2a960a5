/**
 * The duet's pure parts: which two arms a round seats on which core (the
 * baseline beside each other arm in turn, the cores swapped every rotation),
 * how many rounds give every arm the pairs a lockstep table gives it, the
 * cores this process may use, and a turn's windows (every command written
 * before any answer is awaited).
 */
import { describe, expect, it } from 'vitest';
import type { SampleReading } from '@rtbench/process';
import { allowedCpus, DUET, seatsFor } from '../src/measurers/duet.ts';
import { LOCKSTEP, takeTurn } from '../src/measurers/lockstep.ts';
import { roundsPerArm, type RoundPlan } from '../../run/src/schedule.ts';

const arm = (id: string): { id: string } => ({ id });
const [node, bun, deno, workerd] = ['node', 'bun', 'deno', 'workerd'].map(arm) as [{ id: string }, { id: string }, { id: string }, { id: string }];
const CORES = [0, 1] as const;
const pairOf = (seats: ReturnType<typeof seatsFor>): string => seats.map((s) => `${s.arm.id}@${s.core}`).join(' ');

describe('the arms a duet round seats', () => {
  it('seats the two arms of a comparison every round, swapping their cores round by round', () => {
    const rounds = [0, 1, 2, 3].map((r) => pairOf(seatsFor([bun, node], [node, bun], r, CORES)));
    expect(rounds).toEqual(['node@0 bun@1', 'node@1 bun@0', 'node@0 bun@1', 'node@1 bun@0']);
  });

  it('pairs the baseline with each other arm in turn, and every pair meets both cores within 2 × (arms − 1) rounds', () => {
    const run = [node, bun, deno, workerd];
    const rounds = Array.from({ length: 6 }, (_, r) => pairOf(seatsFor([workerd, deno, bun, node], run, r, CORES)));
    expect(rounds).toEqual(['node@0 bun@1', 'node@0 deno@1', 'node@0 workerd@1', 'node@1 bun@0', 'node@1 deno@0', 'node@1 workerd@0']);
  });

  it('names each seat\'s partner, so a saved round says what it sampled beside', () => {
    const seats = seatsFor([node, bun], [node, bun], 0, CORES);
    expect(seats.map((s) => s.partner)).toEqual(['bun', 'node']);
  });

  it("keeps the run's rotation when an arm has left it (failed): its rounds seat nobody, so no arm gets more than its share", () => {
    const run = [node, bun, deno];
    // bun failed: deno keeps its own rounds (1, 3), not bun's too.
    const rounds = [0, 1, 2, 3].map((r) => pairOf(seatsFor([node, deno], run, r, CORES)));
    expect(rounds).toEqual(['', 'node@0 deno@1', '', 'node@1 deno@0']);
    // Over the rounds of a three-arm table each arm left meets the baseline in half of them, as planned.
    const seated = Array.from({ length: 20 }, (_, r) => seatsFor([node, deno], run, r, CORES)).filter((s) => s.length).length;
    expect(seated).toBe(10);
    // The baseline failed: the first arm still asked takes its seat, the rotation unchanged.
    expect([0, 1].map((r) => pairOf(seatsFor([deno, bun], run, r, CORES)))).toEqual(['', 'bun@0 deno@1']);
  });

  it('seats a lone arm of the run alone, on the first core, with no partner', () => {
    expect(seatsFor([node], [node], 3, [2, 5])).toEqual([{ arm: node, core: 2 }]);
    expect(seatsFor([], [node, bun], 0, CORES)).toEqual([]);
  });
});

describe('the rounds of a duet table, counted per arm', () => {
  const { rounds, maxRounds, time } = DUET.defaults.bench;
  const defaultPlan = (): { roundPlan: RoundPlan; timeMs: number } => ({ roundPlan: { order: 'shuffled', rounds, adaptive: { target: 0.02, maxRounds, budgetMs: 60_000 } }, timeMs: Number.parseInt(time, 10) });
  /** Each arm's pairs over a plan's rounds, and the cores it sat on. */
  const pairsOf = (arms: readonly { id: string }[], total: number): Map<string, number[]> => {
    const cores = new Map<string, number[]>();
    for (let r = 0; r < total; r++) for (const seat of seatsFor(arms, arms, r, CORES)) cores.set(seat.arm.id, [...(cores.get(seat.arm.id) ?? []), seat.core]);
    return cores;
  };

  it("gives each arm of a four-arm table lockstep's minimum of pairs, half on each core, and as much sampling per round", () => {
    const arms = [node, bun, deno, workerd];
    const planned = roundsPerArm(defaultPlan(), DUET.roundsPerPair!(arms.length));
    expect(planned.roundPlan.rounds).toBe(rounds * 3);
    expect(planned.roundPlan.adaptive?.maxRounds).toBe(maxRounds * 3);
    expect(planned.timeMs / planned.roundPlan.rounds).toBe(defaultPlan().timeMs / rounds);
    const pairs = pairsOf(arms, planned.roundPlan.rounds);
    for (const other of [bun, deno, workerd]) {
      expect(pairs.get(other.id)).toHaveLength(LOCKSTEP.defaults.bench.rounds);
      expect(pairs.get(other.id)!.filter((c) => c === CORES[0])).toHaveLength(rounds / 2);
    }
  });

  it('leaves a two-arm duet and lockstep as planned: every round gives every arm a pair', () => {
    expect(roundsPerArm(defaultPlan(), DUET.roundsPerPair!(2))).toEqual({ ...defaultPlan(), perArm: 1 });
    expect(DUET.roundsPerPair!(1)).toBe(1);
    expect(LOCKSTEP.roundsPerPair).toBeUndefined();
    expect(roundsPerArm({ roundPlan: { order: 'balanced', rounds: 4 }, timeMs: 100 }, 3)).toEqual({ roundPlan: { order: 'balanced', rounds: 12 }, timeMs: 300, perArm: 3 });
  });
});

describe("the CPUs a process may use, from its /proc status", () => {
  it('reads ranges and single CPUs', () => {
    expect(allowedCpus('Name:\tnode\nCpus_allowed:\tf\nCpus_allowed_list:\t0-2,5\nMems_allowed_list:\t0\n')).toEqual([0, 1, 2, 5]);
    expect(allowedCpus('Cpus_allowed_list:\t1\n')).toEqual([1]);
  });
  it('finds none when the line is missing', () => {
    expect(allowedCpus('Name:\tnode\n')).toEqual([]);
  });
});

describe("a turn's windows", () => {
  /** A process that answers only when released, recording when it was asked. */
  function held(log: string[], name: string): { sample(): Promise<SampleReading | undefined>; release(): void } {
    let release = (): void => undefined;
    return {
      sample: () =>
        new Promise((resolve) => {
          log.push(`ask ${name}`);
          release = () => {
            log.push(`answer ${name}`);
            resolve({ ns: 1, waitedNs: 1, sentMs: 0, receivedMs: 0 });
          };
        }),
      release: () => release(),
    };
  }

  it('together: asks every arm before any answers, and gives each the same position', async () => {
    const log: string[] = [];
    const a = held(log, 'a');
    const b = held(log, 'b');
    const turn = takeTurn([a, b], [0, 1], 3, true);
    await Promise.resolve();
    expect(log).toEqual(['ask a', 'ask b']);
    b.release();
    a.release();
    const samples = await turn;
    expect(samples.map((s) => [s.arm, s.position])).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  it('in turn: asks the next arm only after the previous answered, the order rotated by the turn', async () => {
    const log: string[] = [];
    const a = held(log, 'a');
    const b = held(log, 'b');
    const turn = takeTurn([a, b], [0, 1], 1, false);
    await Promise.resolve();
    expect(log).toEqual(['ask b']);
    b.release();
    await new Promise((r) => setTimeout(r, 0));
    a.release();
    const samples = await turn;
    expect(log).toEqual(['ask b', 'answer b', 'ask a', 'answer a']);
    expect(samples.map((s) => [s.arm, s.position])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('together: an arm that ended has no reading, the other keeps its window', async () => {
    const ended = { sample: (): Promise<SampleReading | undefined> => Promise.resolve(undefined) };
    const live = { sample: (): Promise<SampleReading | undefined> => Promise.resolve({ ns: 2, waitedNs: 2, sentMs: 0, receivedMs: 0 }) };
    const samples = await takeTurn([ended, live], [0, 1], 0, true);
    expect(samples.map((s) => s.reading?.ns)).toEqual([undefined, 2]);
  });
});
