/**
 * --concurrency's arithmetic (src/request/waves.ts): which requests go
 * together, what each answered request is charged of its wave's CPU, and
 * that no more than N are ever in flight while N are kept so.
 */
import { describe, expect, it } from 'vitest';
import { inFlight, perRequestShare, WAVE_PER_SLOT, waves } from '../src/request/waves.ts';

describe('waves', () => {
  it('one at a time: every request is its own wave, in order', () => {
    expect(waves(4, 1)).toEqual([[0], [1], [2], [3]]);
  });

  it('N in flight: the first request alone, then waves of WAVE_PER_SLOT × N, the last one shorter; every request once', () => {
    const w = waves(100, 10);
    expect(w[0]).toEqual([0]);
    expect(w.slice(1, -1).every((wave) => wave.length === WAVE_PER_SLOT * 10)).toBe(true);
    expect(w.flat()).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(w.at(-1)!.length).toBe(99 % (WAVE_PER_SLOT * 10));
  });

  it('no requests, no waves; one request, one wave', () => {
    expect(waves(0, 4)).toEqual([]);
    expect(waves(1, 4)).toEqual([[0]]);
  });

  it("each answered request is charged the wave's CPU over the requests answered in it; a wave none answered charges no one", () => {
    expect(perRequestShare(40e6, 4)).toBe(10e6);
    expect(perRequestShare(40e6, 3)).toBeCloseTo(13.333e6, -3);
    expect(perRequestShare(40e6, 0)).toBeUndefined();
  });
});

describe('inFlight', () => {
  it('keeps exactly `limit` tasks running until fewer are left, and returns results in index order', async () => {
    let running = 0;
    let most = 0;
    const pending: (() => void)[] = [];
    const done = inFlight(10, 4, async (i) => {
      running++;
      most = Math.max(most, running);
      // Each task ends only when the test ends it: the order of ending is the test's, not a clock's.
      await new Promise<void>((resolve) => pending.push(resolve));
      running--;
      return i * 2;
    });
    for (let ended = 0; ended < 10; ended++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBe(Math.min(4, 10 - ended));
      // End the newest first: a new task must still be started for each one that ends.
      pending.pop()!();
    }
    expect(await done).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    expect(most).toBe(4);
  });

  it('one at a time with a limit of 1, and nothing run for no tasks', async () => {
    const order: number[] = [];
    await inFlight(3, 1, async (i) => void order.push(i));
    expect(order).toEqual([0, 1, 2]);
    expect(await inFlight(0, 4, async () => 1)).toEqual([]);
  });

  it('once a result says stop, no further task starts: those in flight end and keep their results, the rest have none', async () => {
    const started: number[] = [];
    const pending = new Map<number, (stuck: boolean) => void>();
    const done = inFlight(
      12,
      3,
      async (i) => {
        started.push(i);
        return { i, stuck: await new Promise<boolean>((resolve) => pending.set(i, resolve)) };
      },
      (r) => r.stuck,
    );
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual([0, 1, 2]);
    pending.get(0)!(false);
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    // Request 1 got no response: nothing more is sent; 2 and 3, already in flight, are answered.
    pending.get(1)!(true);
    await settle();
    pending.get(2)!(false);
    pending.get(3)!(false);
    const results = await done;
    expect(started).toEqual([0, 1, 2, 3]);
    expect(results.map((r) => r?.i)).toEqual([0, 1, 2, 3, ...Array.from({ length: 8 }, () => undefined)]);
    expect(results[1]).toEqual({ i: 1, stuck: true });
  });
});
