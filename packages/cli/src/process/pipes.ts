/**
 * A reader that goes away (`rtbench … | head -1`, a closed terminal) closes
 * the pipe under stdout or stderr; Node then raises EPIPE on the next write
 * and, unhandled, ends the process with a stack trace. What was asked for is
 * still worth finishing: the run goes on and is saved, only the writing to
 * that stream stops, and the exit code is what it would have been.
 */
export function survivePipeClosing(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    // Nobody reads any more: later writes are dropped rather than raised.
    stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (typeof done === 'function') (done as () => void)();
      return true;
    }) as typeof stream.write;
  });
}
