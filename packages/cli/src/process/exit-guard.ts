/**
 * rtbench never ends with exit code 0 unless it finished. Code rtbench loads
 * and runs in its own process (runtime plug-ins from RTBENCH_RUNTIME_PLUGINS)
 * can end it early: process.exit(0) from a callback, or a promise that can
 * never settle with nothing else pending (Node then exits at once, with 13 or
 * 0, and says only "unsettled top-level await"). Either way this says in one
 * line what rtbench was doing, names the plug-in it was waiting on, and makes
 * the exit code mean it did not finish.
 */
import { writeSync } from 'node:fs';

/** The exit code when rtbench was ended before it finished (EX_SOFTWARE: an internal error). */
const ENDED_EARLY_EXIT = 70;

/** `pendingPluginCall`: what a loaded runtime plug-in is being waited on for (@rtbench/runtime-registry), when plug-ins were loaded. */
export function guardEarlyExit(pendingPluginCall: () => string | undefined): { finished(): void } {
  let done = false;
  process.on('exit', (code) => {
    // A non-zero code is an exit someone chose and explained (a second Ctrl-C, an uncaught error's stack).
    if (done || (code !== 0 && code !== 13)) return;
    const pending = pendingPluginCall();
    const why = pending ? `while waiting on ${pending}, which can no longer answer (or ended the process)` : 'by code it loaded (process.exit, ' +
      'or a promise that can never settle)';
    try {
      writeSync(2, `error: rtbench ended before it finished, ${why}; nothing more was measured or saved\n`);
    } catch {
      /* stderr closed */
    }
    process.exitCode = ENDED_EARLY_EXIT;
  });
  return { finished: () => void (done = true) };
}
