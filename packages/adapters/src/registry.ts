/**
 * The registry a brought-over file fills as it loads. The file (mitata,
 * tinybench, Node core's common.js, node:bench, Deno.bench, vitest's bench()
 * or benchmark.js) is imported for
 * its side effects; its declarations (`bench()`, `new Bench().add()`, …)
 * land here instead of in a harness of their own, and `broughtSuite` turns what
 * was declared into an rtbench suite. One registry per bundle: each runtime
 * process loads one file.
 */
import { caseId, UnsupportedError, type CaseSpec } from '@rtbench/core/suite';
import { type CaseBody, type Params, type SuiteDefinition } from '@rtbench/core';
import { oneLine } from '@rtbench/core/words';
import type { BroughtFormat } from './formats.ts';
import { forgetKept } from './keep-alive.ts';
import { digestFor, type BroughtSource } from './case-digest.ts';
import { withSeededRandom } from './seeded-random.ts';

export interface DeclaredCase {
  /** The format of the file that declared it. */
  format: BroughtFormat;
  group: string | undefined;
  /** The case's name as the file's own harness would print it (mitata: `$arg` already replaced). */
  name: string;
  /** Every parameter value of this case. */
  params: Params;
  /** Parameters the name does not show; they go into the id as ` [k=v]`. */
  idParams: Params;
  body: CaseBody;
}

/** Formats whose functions return nothing by design, and why in a few words: their undefined is not a case without work. */
const NOTHING_BY_DESIGN: Partial<Record<BroughtFormat, string>> = {
  'node-core': "Node core's main() times a region and returns nothing",
  'node-bench': "node:bench's functions time a region and return nothing",
};

interface RegistryState {
  declared: DeclaredCase[];
  notes: string[];
  /** Declarations still running (async group/summary bodies). */
  pending: Promise<unknown>[];
  /** Called once the file has loaded: commit what was declared but never run(). */
  onLoaded: (() => void | Promise<void>)[];
}

const state: RegistryState = { declared: [], notes: [], pending: [], onLoaded: [] };

export function declareCase(c: DeclaredCase): void {
  state.declared.push(c);
}

/** Something the user should know about how a piece of their file maps onto rtbench; said once. */
export function note(message: string): void {
  if (!state.notes.includes(message)) state.notes.push(message);
}

export function trackPending(promise: Promise<unknown>): void {
  state.pending.push(promise);
}

export function whenLoaded(fn: () => void | Promise<void>): void {
  state.onLoaded.push(fn);
}

/** A suite made from a brought-over file; `loadError` is set when the file threw while loading. */
export interface BroughtSuite extends SuiteDefinition {
  readonly notes: readonly string[];
  readonly loadError?: string;
}

function toSpecs(declared: readonly DeclaredCase[], source: BroughtSource): CaseSpec[] {
  const seen = new Map<string, number>();
  return declared.map((c) => {
    let id = caseId(c.group, c.name, c.idParams);
    // Both harnesses allow two cases of one name; rtbench's ids must be unique.
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    if (count > 1) {
      id = `${id} #${count}`;
      if (count === 2) state.notes.push(`two cases are named ${JSON.stringify(caseId(c.group, c.name, c.idParams))}: the second is ${JSON.stringify(id)} (and so on), in the order the file declares them`);
    }
    return {
      id,
      name: c.name,
      group: c.group,
      params: c.params,
      ...digestFor(c, id, source),
      beforeDigestCall: forgetKept,
      ...(NOTHING_BY_DESIGN[c.format] ? { returnsNothing: NOTHING_BY_DESIGN[c.format] } : {}),
    };
  });
}

/** Why a file did not load in this runtime, said as a reason (the error itself shortened in brackets). */
/** The text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export function loadFailureReason(error: unknown): string {
  if (error instanceof ExitWhileLoading) return error.message;
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const message = clipAtWord(oneLine(raw.trim()), 300);
  const hints: [RegExp, string][] = [
    [/ENOENT|no such file|readAll|readFileSync/i, 'the file reads files while loading, and this runtime cannot see them (workerd has no access to your files)'],
    [/Code generation from strings|EvalError|unsafe-eval/i, 'the file generates code from strings (eval, new Function), which this runtime refuses'],
    [/No such module|Cannot find module|not found/i, 'the file imports a module this runtime does not have'],
  ];
  // Deno's "Requires read access to …, run again with the --allow-read flag": the flag goes on the variant.
  const denied = /Requires (read|write|net|env|sys|run|ffi|import) access/i.exec(raw)?.[1]?.toLowerCase();
  if (denied) return `deno refused ${denied} access while the file loaded (rtbench gives deno no permission but env): grant it in the variant, e.g. --runtime "deno --allow-${denied}" (${message})`;
  const hint = hints.find(([re]) => re.test(raw))?.[1];
  return hint ? `${hint} (${message})` : `the file failed to load here (${message})`;
}

/** Thrown by the file's process.exit(code) with a code other than 0: the file gave up while loading. */
class ExitWhileLoading extends Error {
  override readonly name = 'ExitWhileLoading';
}

/** Replaces process.exit (where there is one) for the rest of the process: 0 is a no-op with a note, other codes throw. */
function withoutExit(): void {
  const proc = (globalThis as { process?: { exit?: unknown } }).process;
  if (!proc || typeof proc.exit !== 'function') return;
  let noted = false;
  proc.exit = (code?: number | string | null): void => {
    const n = code === undefined || code === null ? 0 : Number(code);
    if (n !== 0) throw new ExitWhileLoading(`the file called process.exit(${String(code)})`);
    if (!noted) state.notes.push('process.exit(0) in the file is ignored: rtbench ends each process itself once its cases have run');
    noted = true;
  };
}

/**
 * Loads a brought-over file (`load` imports it) and returns its cases as a
 * suite. A file that throws while loading gives a suite whose cases are
 * unsupported here, with the error as the reason: the cases were listed in
 * the first selected runtime that could load the file, so a failure now is
 * this runtime's.
 */
export async function broughtSuite(name: string, load: () => Promise<unknown>, source: BroughtSource = {}): Promise<BroughtSuite> {
  // Files written for mitata often end in `await run(); process.exit(0)`. The
  // harness ends the process itself (with its own reference to exit), so the
  // file's exit is kept from ending it before a case has run.
  withoutExit();
  const loadAll = async (): Promise<void> => {
    await load();
    // Async group() bodies may still be declaring.
    while (state.pending.length) await Promise.all(state.pending.splice(0));
    for (const fn of state.onLoaded.splice(0)) await fn();
  };
  try {
    // Inputs the file draws with Math.random at its top level are the same in every process (seeded-random.ts).
    await (source.realRandomAtLoad ? loadAll() : withSeededRandom(loadAll));
  } catch (error) {
    const reason = loadFailureReason(error);
    return {
      kind: 'rtbench.suite',
      name,
      notes: [...state.notes],
      loadError: reason,
      cases() {
        throw new UnsupportedError(reason);
      },
    };
  }
  const specs = toSpecs(state.declared, source);
  return { kind: 'rtbench.suite', name, notes: [...state.notes], cases: () => specs };
}
