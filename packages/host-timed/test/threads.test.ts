/**
 * A server's threads between requests (src/request/threads.ts): when they
 * are idle, read through a scripted view of the process, and their CPU
 * after a request (cpuAfter): from the idle read to the next request's
 * start, less the empty handler's requests read between them, per thread.
 */
import { describe, expect, it } from 'vitest';
import { cpuAfter, readWhenIdle, type ThreadsView } from '../src/request/threads.ts';

/** A process whose thread times are read in this order, none of its threads ever seen runnable. */
function scripted(reads: [number, number][][]): ThreadsView & { reads: number } {
  const view = {
    reads: 0,
    times: () => new Map(reads[Math.min(view.reads++, reads.length - 1)]!),
    anyRunnable: () => false,
  };
  return view;
}

describe('readWhenIdle', () => {
  it('a thread that ran while the states were read is not idle: the read after the states sees its time move', async () => {
    const main = 1;
    const helper = 2;
    // The main thread asleep on a collection's helper; the helper runs, wakes it and sleeps between the two state
    // reads, so neither is seen runnable; then the main thread runs on, and only then is the process idle.
    const view = scripted([
      [[main, 100], [helper, 50]],
      [[main, 100], [helper, 50]],
      [[main, 100], [helper, 52]],
      [[main, 340], [helper, 52]],
      [[main, 340], [helper, 52]],
    ]);
    const read = await readWhenIdle(0, 20, view);
    expect(read.settled).toBe(true);
    expect(read.times.get(main)).toBe(340);
  });

  it('a process whose times keep moving is not settled within its polls, and its last times are given', async () => {
    const view = scripted(Array.from({ length: 12 }, (_, k) => [[1, 10 * k]]));
    const read = await readWhenIdle(0, 5, view);
    expect(read.settled).toBe(false);
    expect(read.times.get(1)).toBe(50);
  });
});

describe('cpuAfter', () => {
  it("each thread's CPU from the idle read to the next start, the empty requests' own taken out", () => {
    const idle = new Map([
      [10, 5e6],
      [11, 1e6],
    ]);
    const next = new Map([
      [10, 9e6],
      [11, 1.5e6],
    ]);
    const empties = [new Map([[10, 1e6]]), new Map([[10, 0.5e6], [11, 0.2e6]])];
    expect(cpuAfter(idle, next, empties)).toEqual(
      new Map([
        [10, 2.5e6],
        [11, 0.3e6],
      ]),
    );
  });

  it('with no empty requests between, the whole gap; a thread started after the idle read counts whole', () => {
    const after = cpuAfter(new Map([[10, 5e6]]), new Map([[10, 6e6], [12, 0.4e6]]), []);
    expect(after).toEqual(new Map([[10, 1e6], [12, 0.4e6]]));
  });

  it('never below 0 (an empty request read a moment later than the gap), and a thread the gap did not see is not added', () => {
    const after = cpuAfter(new Map([[10, 5e6]]), new Map([[10, 5.2e6]]), [new Map([[10, 0.3e6], [13, 1e6]])]);
    expect(after).toEqual(new Map([[10, 0]]));
  });
});
