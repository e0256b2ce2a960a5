/** What taskset is asked to pin: a request round's main thread alone, a load round's every thread. */
import { describe, expect, it, vi } from 'vitest';

const calls: string[][] = [];
vi.mock('node:child_process', () => ({
  spawnSync: (command: string, args: string[]) => {
    calls.push([command, ...args]);
    // taskset fails for PID 1 here, as it does for a process that ended.
    return { status: args.at(-1) === '1' ? 1 : 0 };
  },
}));

const { pinMainThread, pinProcess } = await import('../src/pinning.ts');

describe('pinning', () => {
  it('a request round pins the main thread alone: the engine helper threads keep every core', () => {
    calls.length = 0;
    expect(pinMainThread(4242, 0)).toBe(true);
    expect(calls).toEqual([['taskset', '-p', '-c', '0', '4242']]);
  });

  it('a load round pins every thread of the server to its core', () => {
    calls.length = 0;
    expect(pinProcess(4242, 1)).toBe(true);
    expect(calls).toEqual([['taskset', '-a', '-p', '-c', '1', '4242']]);
  });

  it('taskset refusing reads false', () => {
    expect(pinMainThread(1, 0)).toBe(false);
    expect(pinProcess(1, 0)).toBe(false);
  });
});
