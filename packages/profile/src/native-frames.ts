/**
 * perf's samples as a `.cpuprofile`, so that a native profile is summarised,
 * drawn and compared by the code that does it for the engines' own CPU
 * profiles (summary.ts, tree.ts): one profile node per distinct call path,
 * each frame named and put in a category: JIT code by its perf-map or jitdump
 * name, native code by its symbol (C++ template arguments folded), system
 * code charged to its caller's category, and an address without a symbol
 * named by its library (`deno (no symbols)`), consecutive ones merged.
 * The naming rules: docs/native-profiles.md "How frames are named".
 */
import { basename } from 'node:path';
import { inlinedIntoTimedPath } from './alloc-summary.ts';
import type { FrameLocator } from './source-map.ts';
import { categorize, type Category } from './summary.ts';
import type { CallFrame, CpuProfile, ProfileNode } from './cpuprofile.ts';
import type { PerfFrame, PerfSample } from './perf-script.ts';
import type { RuntimePlugin } from '@rtbench/runtime-kit';

const NO_SYMBOLS = '(no symbols)';

/** A frame as the profile shows it; `category` undefined: charged to its caller's. */
export interface NamedFrame {
  callFrame: CallFrame;
  category?: Category;
  /** A JIT-compiled JavaScript frame (categorised as CPU profiles categorise JavaScript). */
  javascript?: boolean;
  /** No symbol: an address grouped by its library. */
  unresolved?: boolean;
}

const V8_JS = /^(?:JS|Eval|Script|Function|LazyCompile):(?:[a-z](?=[~^+*]))?([~^+*]?)'?(.*) (\S+):(\d+):(\d+)$/;
const V8_CODE = /^(Builtin|BytecodeHandler|Stub|RegExp|Handler|Function|Callback|LazyCompile|Script|Eval|JS|Shared|Snapshot|WasmFunction|Wasm|InterpretedFunction):/;
const JSC_JS = /^JSC-(Baseline|DFG|FTL|LLInt|InterpretedFunction):\s*(.*?)(#\w+)?$/;
const JSC_CODE = /^JSC-[\w-]+:/;

/** Libraries engines link for text and numbers (ICU, simdutf, number conversion): the engine's, whichever it is. */
const ENGINE_LIBRARIES = /^(icu_\d+::|u_|ucol_|ubrk_|utf8_|simdutf::|fast_float::|double_conversion::)/;

/** The native symbols of the runtime and engine a profile was taken on, as their plug-in declares them. */
export interface NativeSymbols {
  readonly runtime: RegExp;
  readonly engine: RegExp;
  readonly gc: RegExp;
}

export function nativeSymbolsOf(plugin: Pick<RuntimePlugin, 'frames' | 'engine'>): NativeSymbols {
  return { runtime: plugin.frames.nativeSymbols, engine: plugin.engine.nativeSymbols, gc: plugin.engine.gcSymbols };
}
/** The operating system's code: its time is its caller's. */
const SYSTEM_DSO = /^\[(kernel\.kallsyms|vdso|vsyscall)\]$|^\/(usr\/)?lib(32|64|x32)?\//;
const JIT_DSO = /^\/tmp\/perf-\d+\.map$|^\/\/anon$|^\[anon/;

/** Very long C++ names (std:: templates) are cut: a frame's label, not a key to anything. */
const MAX_NAME = 240;
const cut = (name: string): string => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name);

/**
 * A C++ name with its template arguments folded to `<…>`: an engine's
 * template parameters are renamed between releases (node@24's
 * `InternalizeJsonProperty<(…::WithOrWithoutSource)1>` is node@26's
 * `InternalizeJsonProperty<(…::ReviverMode)0>`), and a comparison has to
 * see one function. Two instantiations of one template become one frame.
 */
export function foldTemplateArguments(name: string): string {
  let out = '';
  let depth = 0;
  // Rust's `<Type as Trait>::method` and `<Type>::method`: the leading brackets are the type, not template arguments.
  let start = 0;
  if (name.startsWith('<')) {
    for (let d = 0; start < name.length; start++) {
      if (name[start] === '<') d++;
      else if (name[start] === '>' && --d === 0) break;
    }
    out = name.slice(0, ++start);
  }
  for (let i = start; i < name.length; i++) {
    const ch = name[i]!;
    if (ch === '<' && depth === 0 && /operator<?$/.test(out)) {
      out += ch;
      continue;
    }
    if (ch === '<') {
      if (depth++ === 0) out += '<…';
    } else if (ch === '>' && depth > 0) {
      if (--depth === 0) out += '>';
    } else if (depth === 0) out += ch;
  }
  return depth === 0 ? out : name;
}

/**
 * The qualified name of an Itanium-mangled C++ name that perf left mangled
 * (its demangler gives up on C++20 constraints: node@26's
 * `_ZN2v88internal11PropertyKeyC2I…` is `v8::internal::PropertyKey::PropertyKey<…>`),
 * without its parameters, template arguments folded as above; the name
 * unchanged when it is not a nested name this reads.
 */
export function nestedName(symbol: string): string {
  const m = /^_ZN[rVKRO]*/.exec(symbol);
  if (!m) return symbol;
  const parts: string[] = [];
  let i = m[0].length;
  let templated = false;
  while (i < symbol.length) {
    const len = /^\d+/.exec(symbol.slice(i));
    if (len) {
      const start = i + len[0].length;
      parts.push(symbol.slice(start, start + Number(len[0])));
      i = start + Number(len[0]);
      continue;
    }
    const rest = symbol.slice(i);
    if (/^C[123]/.test(rest) && parts.length) parts.push(parts[parts.length - 1]!);
    else if (/^D[012]/.test(rest) && parts.length) parts.push(`~${parts[parts.length - 1]!}`);
    templated = /^(C[123]|D[012])?I/.test(rest);
    break;
  }
  return parts.length >= 2 ? `${parts.join('::')}${templated ? '<…>' : ''}` : symbol;
}

const native = (functionName: string): CallFrame => ({ functionName: cut(functionName), scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 });

/** The category of a native symbol on the runtime of `symbols`; undefined: its caller's. */
export function nativeCategory(symbol: string, symbols?: NativeSymbols): Category | undefined {
  if (symbols?.gc.test(symbol)) return 'gc';
  if (symbols?.runtime.test(symbol)) return 'runtime';
  if (symbols?.engine.test(symbol) || ENGINE_LIBRARIES.test(symbol)) return 'engine';
  return undefined;
}

/** One perf frame, named and categorised (native symbols by those of the runtime profiled). */
export function nameFrame(frame: PerfFrame, symbols?: NativeSymbols): NamedFrame {
  const { symbol, dso } = frame;
  if (symbol !== undefined) {
    const js = V8_JS.exec(symbol);
    if (js) {
      const [, , name, url, line, col] = js;
      return { callFrame: { functionName: name!, scriptId: '0', url: url!, lineNumber: Number(line) - 1, columnNumber: Number(col) - 1 }, javascript: true };
    }
    const jsc = JSC_JS.exec(symbol);
    if (jsc) {
      const [, tier, rawName] = jsc;
      // A program's code block is named by its source URL: the file's name says enough.
      const name = !rawName ? '(anonymous)' : /^(\/|file:|https?:)/.test(rawName) ? `(program ${basename(rawName)})` : rawName;
      return { callFrame: native(`${name} [${tier}]`), category: 'benchmark' };
    }
    if (JSC_CODE.test(symbol) || V8_CODE.test(symbol)) return { callFrame: native(symbol), category: 'engine' };
    if (SYSTEM_DSO.test(dso)) return { callFrame: native(symbol) };
    const name = foldTemplateArguments(nestedName(symbol));
    return { callFrame: native(name), ...categoryOf(nativeCategory(name, symbols)) };
  }
  if (JIT_DSO.test(dso)) return { callFrame: native(`(JIT code the engine did not name) ${NO_SYMBOLS}`), category: 'engine', unresolved: true };
  if (dso === '[unknown]' || dso === '') return { callFrame: native(`(unknown library) ${NO_SYMBOLS}`), unresolved: true };
  // A stripped binary: its code is the engine's and the runtime's, which cannot be told apart without symbols.
  return { callFrame: native(`${basename(dso)} ${NO_SYMBOLS}`), ...(SYSTEM_DSO.test(dso) ? {} : { category: 'engine' as const }), unresolved: true };
}

const categoryOf = (c: Category | undefined): { category?: Category } => (c ? { category: c } : {});

export interface NativeProfile {
  /** The samples of one thread as a `.cpuprofile` (µs; each sample's weight is its period). */
  profile: CpuProfile;
  /** Categories of the native frames, by profile node (JavaScript frames are categorised from their source, summary.ts). */
  categories: Map<number, Category>;
  /** Samples whose innermost frame had no symbol. */
  unresolvedSamples: number;
}

/**
 * One thread's samples as a `.cpuprofile`: a node per distinct call path
 * (outermost first), consecutive frames of one unresolved library merged,
 * system frames in their caller's category.
 */
export interface NativeToCpuProfileOptions {
  /** The native symbols of the runtime profiled (nativeSymbolsOf its plug-in); without them only the engines' libraries are told apart. */
  symbols?: NativeSymbols;
  /**
   * The harness's own JavaScript frames (the bundle's): a stack that has one
   * starts at its outermost one. What the runtime does above the harness
   * (its event loop, microtask queue and bootstrap) differs between
   * releases (node@26 adds `InvokeWithTryCatch` there), and a differential
   * view matches frames by call path: kept, it would show everything below
   * as new. Stacks without one are kept whole.
   */
  isHarnessStart?: (frame: NamedFrame) => boolean;
  /**
   * The harness's JavaScript frames, and which of them are its timed path
   * (harnessFrames): a stack whose leading harness frames include the timed
   * path has them merged, down to the innermost on the timed path, into one
   * frame, TIMED_LOOP (the case's, as the timed loop's frames with the case's
   * code inlined into them are in CPU and allocation profiles). Which of them the JIT
   * inlined into which (node@24 inlines runSync into the sampler, node@26
   * keeps it a frame of its own) differs between releases and runs, and a
   * differential view matches frames by call path: kept, one arm's whole
   * tree below them would show as new. Merged, both arms' trees start at the
   * case: TIMED_LOOP, then the case's own frames and the engine's.
   */
  harnessKind?: (frame: NamedFrame) => HarnessFrameKind | undefined;
}

/** A harness frame: on its timed path (the case's code may be inlined into it), or elsewhere in it. */
export type HarnessFrameKind = 'timed' | 'harness';

/** The one frame the harness's leading frames become on a stack through its timed path (NativeToCpuProfileOptions.harnessKind); the case's. */
export const TIMED_LOOP = '(timed loop, case code inlined into it)';

/** The harness's frames by the bundle's source map (the JIT's frames only). */
export function harnessFrames(locate: FrameLocator): (frame: NamedFrame) => HarnessFrameKind | undefined {
  return (frame) => {
    if (!frame.javascript) return undefined;
    const where = locate(frame.callFrame);
    if (!where || categorize(frame.callFrame, where) !== 'harness') return undefined;
    return inlinedIntoTimedPath(frame.callFrame.functionName || '(anonymous)', where) !== undefined ? 'timed' : 'harness';
  };
}

/** V8's calling plumbing between two JavaScript frames (trampolines, call builtins): part of the harness's frames around it. */
const CALL_PLUMBING = /^(Builtins_|Builtin:|BytecodeHandler:|Stub:)/;

const TIMED_LOOP_FRAME: CallFrame = { functionName: TIMED_LOOP, scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 };

/**
 * The stack's leading harness frames from `outermost` inwards (with V8's
 * calling plumbing between them): the index of the innermost one on the
 * timed path, or undefined when none is. The harness's frames below it (its
 * clock, called from the timed loop) stay frames of their own.
 */
function timedRun(frames: readonly PerfFrame[], outermost: number, nameOf: (f: PerfFrame) => NamedFrame, kind: (f: NamedFrame) => HarnessFrameKind | undefined): number | undefined {
  let timed: number | undefined;
  for (let i = outermost; i >= 0; i--) {
    const named = nameOf(frames[i]!);
    const k = kind(named);
    if (k === 'timed') timed = i;
    else if (!k && (named.javascript || !CALL_PLUMBING.test(named.callFrame.functionName))) break;
  }
  return timed;
}

export function nativeToCpuProfile(samples: readonly PerfSample[], options: NativeToCpuProfileOptions = {}): NativeProfile {
  const root: ProfileNode = { id: 1, callFrame: native('(root)'), hitCount: 0, children: [] };
  const nodes: ProfileNode[] = [root];
  const categories = new Map<number, Category>();
  const childByKey = new Map<string, number>();
  const out: number[] = [];
  const deltas: number[] = [];
  let unresolvedSamples = 0;
  let time = 0;
  // Each distinct frame is named once: a profile has thousands of samples of a few hundred frames.
  const names = new Map<string, NamedFrame>();
  const nameOf = (f: PerfFrame): NamedFrame => {
    const cacheKey = `${f.symbol ?? ''}\u0000${f.dso}`;
    let named = names.get(cacheKey);
    if (!named) names.set(cacheKey, (named = nameFrame(f, options.symbols)));
    return named;
  };
  const { isHarnessStart, harnessKind } = options;
  for (const sample of samples) {
    let parent = root;
    let inherited: Category = 'runtime';
    let previous: string | undefined;
    const frames = sample.frames;
    let outermost = frames.length - 1;
    if (isHarnessStart) {
      const at = frames.findLastIndex((f) => isHarnessStart(nameOf(f)));
      if (at >= 0) outermost = at;
    }
    const enter = (fn: CallFrame, category: Category | undefined): void => {
      const key = `${parent.id}\u0000${fn.functionName}\u0000${fn.url}\u0000${fn.lineNumber}\u0000${fn.columnNumber}\u0000${category ?? 'js'}`;
      let id = childByKey.get(key);
      if (id === undefined) {
        id = nodes.length + 1;
        const node: ProfileNode = { id, callFrame: fn, hitCount: 0, children: [] };
        nodes.push(node);
        parent.children!.push(id);
        childByKey.set(key, id);
        if (category) categories.set(id, category);
      }
      parent = nodes[id - 1]!;
    };
    const timed = harnessKind ? timedRun(frames, outermost, nameOf, harnessKind) : undefined;
    if (timed !== undefined) {
      enter(TIMED_LOOP_FRAME, 'benchmark');
      inherited = 'benchmark';
      outermost = timed - 1;
    }
    for (let i = outermost; i >= 0; i--) {
      const f = frames[i]!;
      const named = nameOf(f);
      const fn = named.callFrame;
      if (named.unresolved && previous === fn.functionName) continue;
      previous = named.unresolved ? fn.functionName : undefined;
      const category: Category | undefined = named.javascript ? undefined : (named.category ?? inherited);
      if (category) inherited = category;
      enter(fn, category);
    }
    parent.hitCount = (parent.hitCount ?? 0) + 1;
    if (sample.frames.length === 0 || nameOf(sample.frames[0]!).unresolved) unresolvedSamples++;
    out.push(parent.id);
    // A sample's weight is the next time delta (summary.ts sampleWeights): the period, in µs.
    deltas.push(deltas.length === 0 ? 0 : (samples[out.length - 2]?.periodNs ?? 0) / 1000);
    time += sample.periodNs / 1000;
  }
  return { profile: { nodes, startTime: 0, endTime: time, samples: out, timeDeltas: deltas }, categories, unresolvedSamples };
}
