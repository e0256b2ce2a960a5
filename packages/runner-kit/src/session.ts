/**
 * A lockstep process from the host's side: started with a lockstep job, it
 * warms up and says `ready`; then the host asks it for one sample at a time
 * (SAMPLE_COMMAND) and, at the end, for its result (FINISH_COMMAND). The run
 * loop asks the live processes of a case in turn, so their samples are taken
 * milliseconds apart and share the machine's state.
 *
 * The transport is the runner's (stdin/stdout for node, deno and bun, a
 * streamed HTTP exchange for workerd); the conversation is the same.
 */
import { FINISH_COMMAND, sampleCommand, type ReadyMessage, type RuntimeMessage } from '@rtbench/core/protocol';
import type { RunningJob } from './process.ts';
import type { JobOutcome } from './types.ts';

export interface LiveCase {
  /** The ready message, or undefined when the process answered (unsupported, an error) or ended first. */
  readonly ready: Promise<ReadyMessage | undefined>;
  /**
   * One sample in ns per iteration; undefined when the process answered or
   * ended instead. `iterations`: exactly that many calls (a fixed-iteration
   * job only: protocol.ts sampleCommand).
   */
  sample(iterations?: number): Promise<number | undefined>;
  /** Asks for the result and waits for the process to end. */
  finish(): Promise<JobOutcome>;
  /** Ends the process now (its outcome then says how it ended). */
  kill(): void;
}

export function liveCase(running: RunningJob): LiveCase {
  let waiting: ((ns: number | undefined) => void) | undefined;
  let onReady: ((message: ReadyMessage | undefined) => void) | undefined;
  let over = false;
  const ready = new Promise<ReadyMessage | undefined>((resolve) => (onReady = resolve));
  const stop = (): void => {
    over = true;
    onReady?.(undefined);
    waiting?.(undefined);
    waiting = undefined;
  };
  running.reader.listen((message: RuntimeMessage) => {
    if (message.type === 'ready') onReady?.(message);
    else if (message.type === 'sample') {
      const resolve = waiting;
      waiting = undefined;
      resolve?.(message.ns);
    } else if (message.type !== 'hello' && message.type !== 'warning') stop();
  });
  void running.outcome.then(stop);
  return {
    ready,
    sample(iterations?: number) {
      if (over) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiting = resolve;
        running.reader.expectSample();
        running.send(sampleCommand(iterations));
      });
    },
    finish() {
      running.send(FINISH_COMMAND);
      running.endInput();
      return running.outcome;
    },
    kill: () => running.kill(),
  };
}
