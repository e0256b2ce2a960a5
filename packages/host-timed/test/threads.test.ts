/**
 * The threads' CPU after a request (src/request/threads.ts cpuAfter): from
 * the idle read to the next request's start, less the empty handler's
 * requests read between them, per thread.
 */
import { describe, expect, it } from 'vitest';
import { cpuAfter } from '../src/request/threads.ts';

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
