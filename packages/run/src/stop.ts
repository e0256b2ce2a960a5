/**
 * A stop asked of a run in progress, one way for every command: SIGINT,
 * SIGTERM, SIGHUP (a closed terminal) and the end of a program that launched
 * rtbench (launchers.ts: SIGTERM sent to pnpm or npx alone does not reach it)
 * each abort one signal, so the run stops and saves what it measured; a
 * second signal ends the process at once with its exit code (128 + its
 * number). A run stopped so, and a campaign (bisect, a release matrix,
 * claims) stopped between or inside its runs, exits by the first signal too:
 * one rule for every command, the code a shell or a supervisor reads as
 * "ended by this signal", whether the stop was the first or the second.
 */
import { setMaxListeners } from 'node:events';
import { watchLaunchers, type Ancestor } from './launchers.ts';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
/** Exit codes after a signal, by the convention 128 + its number. */
export const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];
const SIGNAL_SAID: Readonly<Record<StopSignal, string>> = { SIGHUP: 'hung up (SIGHUP)', SIGINT: 'interrupted', SIGTERM: 'terminated (SIGTERM)' };

/** What asked for the stop: a signal, or a launcher that ended (taken as SIGTERM). */
export type StopCause = { signal: StopSignal } | { signal: 'SIGTERM'; launcher: Ancestor };

/** The line that says why the run stops, then what `doing` says it does (Ctrl-C's second press named). */
export function stopLine(cause: StopCause, doing: string): string {
  if ('launcher' in cause) return `${cause.launcher.name} (pid ${cause.launcher.pid}), which started rtbench, has ended: ${doing}`;
  return `${SIGNAL_SAID[cause.signal]}: ${doing}${cause.signal === 'SIGINT' ? ' (Ctrl-C again to quit now)' : ''}`;
}

export interface StopListener {
  /** Aborted by the first stop asked. */
  readonly signal: AbortSignal;
  /** The signal that asked first (a launcher's end counts as SIGTERM); undefined while none has. */
  received(): StopSignal | undefined;
  /** Stops listening: the handlers and the launchers' watch are gone. */
  end(): void;
}

/** What the listener is plugged into; a test hands its own. */
export interface StopPorts {
  watch: (onGone: (ended: Ancestor) => void) => () => void;
  exit: (code: number) => void;
}

const PROCESS_PORTS: StopPorts = { watch: watchLaunchers, exit: (code) => process.exit(code) };

/** Listens for a stop until `end()`: the first calls `onStop` and aborts `signal`; a second signal exits at once. */
export function listenForStop(onStop: (cause: StopCause) => void, ports: StopPorts = PROCESS_PORTS): StopListener {
  const abort = new AbortController();
  // Every live process listens for the stop; warm processes of their own per case (lockstep-per-case with
  // --sets-per-process) can be dozens at once, past Node's default of 10 listeners before it warns.
  setMaxListeners(0, abort.signal);
  let received: StopSignal | undefined;
  const stop = (cause: StopCause): void => {
    if (received) return void ports.exit(SIGNAL_EXIT[cause.signal]);
    received = cause.signal;
    onStop(cause);
    abort.abort();
  };
  const handlers = SIGNALS.map((signal) => [signal, () => stop({ signal })] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const unwatch = ports.watch((launcher) => {
    if (!received) stop({ signal: 'SIGTERM', launcher });
  });
  return {
    signal: abort.signal,
    received: () => received,
    end: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      unwatch();
    },
  };
}
