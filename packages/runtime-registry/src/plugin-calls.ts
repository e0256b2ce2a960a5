/**
 * Calls into runtime plug-ins loaded from RTBENCH_RUNTIME_PLUGINS: code
 * rtbench did not write, run in rtbench's own process. Each answer is
 * bounded and any failure is said in one line that names the plug-in and its
 * file; what is being waited on is known, so an exit while waiting can say so.
 * The built-in plug-ins are called as they are (their errors are rtbench's).
 */
import { RuntimeUnavailableError, FlagError, type RuntimePlugin } from '@rtbench/runtime-kit';

/** How long rtbench waits for a loaded plug-in's answer (resolve(), checkFlags()). */
const PLUGIN_ANSWER_MS = 120_000;

const sources = new WeakMap<RuntimePlugin, string>();
const waiting = new Set<string>();
let abandoned = 0;

/** Records where a plug-in was loaded from (loadRuntimePlugins). */
export function noteSource(plugin: RuntimePlugin, file: string): void {
  sources.set(plugin, file);
}

/** `runtime plug-in "x" (/path/plugin.ts)`, or undefined for a built-in plug-in. */
export function pluginLabel(plugin: RuntimePlugin): string | undefined {
  const file = sources.get(plugin);
  return file === undefined ? undefined : `runtime plug-in "${plugin.name}" (${file})`;
}

/** What rtbench is waiting on a loaded plug-in for, if anything: for the line said when the process ends meanwhile. */
export function pendingPluginCall(): string | undefined {
  return [...waiting].at(-1);
}

/** How many calls were given up on (no answer in time): their work may still hold the process open. */
export function abandonedPluginCalls(): number {
  return abandoned;
}

/** Control characters (escape sequences a binary printed) and bidi controls shown as escapes, on one line. */
export function escapedLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.slice(0, 300).replace(/[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `call()`'s answer. For a loaded plug-in: an error that is not a
 * RuntimeUnavailableError or FlagError (of any copy of runtime-kit) becomes a
 * RuntimeUnavailableError naming the plug-in, and no answer within `limitMs`
 * becomes one too. The timer does not keep the process alive on its own: a
 * promise that can never settle ends the process at once (the CLI's exit
 * guard says what was pending).
 */
export async function askPlugin<T>(plugin: RuntimePlugin, doing: string, call: () => Promise<T>, limitMs = PLUGIN_ANSWER_MS): Promise<T> {
  const label = pluginLabel(plugin);
  if (label === undefined) return call();
  const what = `${label} ${doing}`;
  waiting.add(what);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned++;
      reject(new RuntimeUnavailableError(`${what}: no answer within ${limitMs / 1000} s`));
    }, limitMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.resolve().then(call), late]);
  } catch (error) {
    if (error instanceof RuntimeUnavailableError || error instanceof FlagError) throw error;
    const name = error instanceof Error ? error.name : 'a thrown value';
    throw new RuntimeUnavailableError(`${what} failed: ${name}: ${escapedLine(error instanceof Error ? error.message : String(error))}`);
  } finally {
    clearTimeout(timer);
    waiting.delete(what);
  }
}
