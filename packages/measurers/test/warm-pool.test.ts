/** The warm processes a measurer keeps (warm-pool.ts): what retired processes tell, drained whole or as far as they have ended. */
import { describe, expect, it } from 'vitest';
import type { WarmProcess } from '@rtbench/process';
import type { LateFailure } from '../src/measurer.ts';
import { WarmPool, type ClosedOutcome } from '../src/measurers/warm-pool.ts';

/** A process whose close() ends when the test says so. */
function fakeProcess(): { process: WarmProcess; end: () => void } {
  let end = (): void => undefined;
  const closed = new Promise<ClosedOutcome>((resolve) => {
    end = () => resolve({ closingErrors: [] } as unknown as ClosedOutcome);
  });
  return { process: { usable: true, close: () => closed, kill: () => undefined } as unknown as WarmProcess, end };
}

const told = (name: string): LateFailure => ({ unitKey: name, armId: 'a', round: 0, failure: { kind: 'warning', message: `${name} ended` } });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WarmPool', () => {
  it('gives what ended processes told without waiting for the others, each once; ended() and drain() wait for every one', async () => {
    const pool = new WarmPool<{ process: WarmProcess; name: string }>((held) => [told(held.name)]);
    const first = fakeProcess();
    const second = fakeProcess();
    pool.take('x', () => ({ process: first.process, name: 'first' }));
    pool.take('y', () => ({ process: second.process, name: 'second' }));
    pool.retire('x');
    pool.retire('y');
    expect(pool.settled()).toEqual([]);

    first.end();
    await tick();
    expect(pool.settled()).toEqual([told('first')]);
    expect(pool.settled()).toEqual([]);

    const drained = pool.drain();
    let ended = false;
    void pool.ended().then(() => (ended = true));
    let done = false;
    void drained.then(() => (done = true));
    await tick();
    expect([ended, done]).toEqual([false, false]);
    second.end();
    expect(await drained).toEqual([told('second')]);
    expect(ended).toBe(true);
  });

  it('keeps a failed close for the next drain, not as an unhandled rejection', async () => {
    const pool = new WarmPool<{ process: WarmProcess }>(() => []);
    const failing = { usable: true, close: () => Promise.reject(new Error('pipe broke')), kill: () => undefined } as unknown as WarmProcess;
    pool.take('x', () => ({ process: failing }));
    pool.retire('x');
    // A set later (vitest fails the file on an unhandled rejection in between).
    await tick();
    await tick();
    expect(pool.settled()).toEqual([]);
    await expect(pool.drain()).rejects.toThrow('pipe broke');
    await expect(pool.drain()).resolves.toEqual([]);
  });

  it('adopts a process started ahead into the key of the case it serves, never over a kept one or from a broken one', () => {
    const pool = new WarmPool<{ process: WarmProcess; name: string }>(() => []);
    const ahead = fakeProcess();
    pool.take('spare', () => ({ process: ahead.process, name: 'ahead' }));
    expect(pool.adopt('spare', 'case a')).toBe(true);
    expect([pool.holds('spare'), pool.holds('case a')]).toEqual([false, true]);
    // take() now reuses the adopted process instead of starting one.
    expect(pool.take('case a', () => ({ process: fakeProcess().process, name: 'fresh' })).name).toBe('ahead');

    pool.take('spare', () => ({ process: fakeProcess().process, name: 'second' }));
    expect(pool.adopt('spare', 'case a')).toBe(false);
    expect(pool.take('spare', () => ({ process: fakeProcess().process, name: 'third' })).name).toBe('second');

    const broken = { usable: false, close: () => new Promise(() => undefined), kill: () => undefined } as unknown as WarmProcess;
    pool.take('dead', () => ({ process: broken, name: 'broken' }));
    expect(pool.adopt('dead', 'case b')).toBe(false);
    expect(pool.holds('case b')).toBe(false);
  });
});
