/** The host's own requests in a request round wait at least 2 s, whatever shorter time-out the handler's requests are given. */
import { describe, expect, it } from 'vitest';
import { ownRequestTimeoutMs } from '../src/request/round.ts';

describe("the host's own requests' time-out", () => {
  it('is at least 2 s under a short --timeout (the spin that finds the JavaScript thread is tens of ms of CPU a loaded machine stretches), and the request time-out where longer', () => {
    expect(ownRequestTimeoutMs(400)).toBe(2_000);
    expect(ownRequestTimeoutMs(2_000)).toBe(2_000);
    expect(ownRequestTimeoutMs(10_000)).toBe(10_000);
  });
});
