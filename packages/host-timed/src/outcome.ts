/** What one host-timed round gives back to the executor: values by metric, or why there are none. */
import type { LoadRound } from '@rtbench/measurer-records';
import type { MetricKey } from './suite.ts';

export type RoundFailureKind = 'error' | 'crash' | 'timeout' | 'interrupted' | 'unsupported';

export interface RoundValues {
  ok: true;
  values: Partial<Record<MetricKey, number>>;
  /** What the runtime answered (first line, response body): digested to prove the same work. */
  answer: string;
  wallMs: number;
  /** Metrics this runtime cannot give, with the reason (reported as unsupported for their cases). */
  unsupported?: Partial<Record<MetricKey, string>>;
  /** Load rounds: the generator, and its CPU time over the load window (near 1: it, not the server, may be the limit). */
  load?: LoadRound;
  /** Load rounds: the figures over the windows before the steady ones (absent: none before them). */
  warmupValues?: Partial<Record<MetricKey, number>>;
  /** Load rounds: a note on the generator used, when it is not the preferred one (wrk). */
  generatorNote?: string;
}

export interface RoundFailure {
  ok: false;
  kind: RoundFailureKind;
  message: string;
  /** The last of the process's output. */
  output?: string;
}

export type RoundOutcome = RoundValues | RoundFailure;

export const fail = (kind: RoundFailureKind, message: string, output?: string): RoundFailure => ({ ok: false, kind, message, ...(output ? { output } : {}) });

/** A promise that settles with `fallback` after ms (the timer never keeps the host alive). */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref?.();
    void promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
