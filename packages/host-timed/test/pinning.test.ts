/** What taskset is asked to pin: a request round's main thread alone, a load round's every thread. */
import { describe, expect, it } from 'vitest';
import { pinArgs } from '../src/pinning.ts';

describe('pinArgs', () => {
  it('a request round pins the main thread alone: the engine helper threads keep every core', () => {
    expect(pinArgs(4242, 0, 'main')).toEqual(['-p', '-c', '0', '4242']);
  });

  it('a load round pins every thread of the server to its core', () => {
    expect(pinArgs(4242, 1, 'every')).toEqual(['-a', '-p', '-c', '1', '4242']);
  });
});
