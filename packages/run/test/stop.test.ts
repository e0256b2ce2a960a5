/**
 * One way to stop (stop.ts), for bench, claims and the campaigns: SIGINT,
 * SIGTERM, SIGHUP and a launcher's end each abort once and say why; a second
 * signal exits at once with 128 + its number; nothing is left listening.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenForStop, SIGNAL_EXIT, stopLine, type StopSignal } from '../src/index.ts';

const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const listening = (): number[] => SIGNALS.map((s) => process.listenerCount(s));

/** Ports that exit nowhere and watch no launcher, but let the test end one. */
function ports(): { exits: number[]; launcherEnds: () => void; watching: () => boolean; exit: (code: number) => void; watch: (onGone: (a: { pid: number; name: string }) => void) => () => void } {
  const exits: number[] = [];
  let gone: ((a: { pid: number; name: string }) => void) | undefined;
  return {
    exits,
    launcherEnds: () => gone?.({ pid: 4242, name: 'pnpm' }),
    watching: () => gone !== undefined,
    exit: (code) => void exits.push(code),
    watch: (onGone) => {
      gone = onGone;
      return () => {
        gone = undefined;
      };
    },
  };
}

describe('a stop', () => {
  // The signals emitted here reach every listener of the worker, which other files share: one that exits
  // (a served process's SIGTERM handler) would end it. Only the stop under test listens while a test runs.
  let foreign: Array<[StopSignal, Array<(...args: unknown[]) => void>]> = [];
  beforeEach(() => {
    foreign = SIGNALS.map((s) => [s, process.listeners(s) as Array<(...args: unknown[]) => void>]);
    for (const s of SIGNALS) process.removeAllListeners(s);
  });
  afterEach(() => {
    for (const [s, listeners] of foreign) for (const l of listeners) process.on(s, l);
  });

  it.each(SIGNALS)('%s aborts once, says why, and a second signal exits with 128 + its number', (signal) => {
    const before = listening();
    const p = ports();
    const causes: string[] = [];
    const stop = listenForStop((cause) => causes.push(stopLine(cause, 'stopping')), p);
    expect(stop.signal.aborted).toBe(false);
    process.emit(signal);
    expect(stop.signal.aborted).toBe(true);
    expect(stop.received()).toBe(signal);
    expect(causes).toHaveLength(1);
    expect(p.exits).toEqual([]);
    process.emit('SIGTERM');
    expect(p.exits).toEqual([SIGNAL_EXIT.SIGTERM]);
    expect(causes).toHaveLength(1);
    stop.end();
    expect(listening()).toEqual(before);
    expect(p.watching()).toBe(false);
  });

  it('takes the end of the launcher that started rtbench as SIGTERM, naming it', () => {
    const p = ports();
    const causes: string[] = [];
    const stop = listenForStop((cause) => causes.push(stopLine(cause, 'stopping')), p);
    p.launcherEnds();
    expect(stop.signal.aborted).toBe(true);
    expect(stop.received()).toBe('SIGTERM');
    expect(causes).toEqual(['pnpm (pid 4242), which started rtbench, has ended: stopping']);
    process.emit('SIGINT');
    expect(p.exits).toEqual([SIGNAL_EXIT.SIGINT]);
    stop.end();
  });

  it('says each cause in its words; Ctrl-C names its second press', () => {
    expect(stopLine({ signal: 'SIGINT' }, 'stopping')).toBe('interrupted: stopping (Ctrl-C again to quit now)');
    expect(stopLine({ signal: 'SIGTERM' }, 'stopping')).toBe('terminated (SIGTERM): stopping');
    expect(stopLine({ signal: 'SIGHUP' }, 'stopping')).toBe('hung up (SIGHUP): stopping');
    expect(SIGNAL_EXIT).toEqual({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });
  });

  it('left alone, aborts nothing and leaves nothing listening', () => {
    const before = listening();
    const p = ports();
    const stop = listenForStop(() => {
      throw new Error('no stop was asked');
    }, p);
    stop.end();
    expect(stop.signal.aborted).toBe(false);
    expect(stop.received()).toBeUndefined();
    expect(listening()).toEqual(before);
  });
});
