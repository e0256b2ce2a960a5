/**
 * Native profiles without perf or a runtime: `perf script` text as perf 6.1
 * prints it (node@26 with V8's perf map, a stripped binary, a kernel page
 * fault), parsed, named, categorised and folded into the call tree and the
 * manifest; a jitdump file as JavaScriptCore writes it.
 */
import { describe, expect, it } from 'vitest';
import { parseProfileManifest } from '@rtbench/core/profile-manifest';
import {
  callTree,
  diffProfiles,
  foldTemplateArguments,
  harnessFrames,
  TIMED_LOOP,
  nestedName,
  nameFrame,
  nativeCategory,
  nativeToCpuProfile,
  nativeSymbolsOf,
  parseJitdump,
  parsePerfScript,
  perfMapLines,
  profileManifest,
  manifestEntry,
  summarize,
  type FrameLocator,
  type NativeCaseResult,
  type NodeFramesOptions,
  type NamedFrame,
  type PerfFrame,
  type PerfSample,
} from '../src/index.ts';
import { pluginNamed } from '@rtbench/runtime-registry';

/** The native symbols each runtime's plug-in declares, as a native profile of it is categorised by. */
const SYMBOLS = { node: nativeSymbolsOf(pluginNamed('node')!), bun: nativeSymbolsOf(pluginNamed('bun')!), workerd: nativeSymbolsOf(pluginNamed('workerd')!) };
import { inlinedIntoTimedPath } from '../src/alloc-summary.ts';
import { demangleSamples, findCxxFilt } from '../src/native-demangle.ts';
import { diffTree } from '../../report/src/html/flame-data.ts';

const NODE = '/opt/node-26/bin/node';
const MAP = '/tmp/perf-4242.map';
const LIBC = '/usr/lib/x86_64-linux-gnu/libc.so.6';
const BUNDLE = '/tmp/cache/json-reviver.node.mjs';

/** Blocks of `perf script -F pid,tid,time,period,ip,sym,dso --no-inline`, innermost frame first. */
function block(pid: number, tid: number, t: number, frames: [string, string][]): string {
  return [`${pid}/${tid}  ${t.toFixed(6)}:     250000 `, ...frames.map(([sym, dso], i) => `\t    ${(0x1000 + i).toString(16)} ${sym} (${dso})`)].join('\n') + '\n';
}

/** The harness's timed loop (runSync) under its sampler (sample), innermost first. */
const caseFrames: [string, string][] = [
  ['JS:^runSync ' + BUNDLE + ':250:3', MAP],
  ['JS:*sample ' + BUNDLE + ':300:10', MAP],
];
const parse = (leaf: [string, string][]): [string, string][] => [
  ...leaf,
  ['v8::internal::JsonParser<unsigned char>::Parse', NODE],
  ['v8::internal::Builtin_JsonParse', NODE],
  ['Builtins_CEntry_Return1_ArgvOnStack_BuiltinExit', NODE],
  ['JS:*parseArrow ' + BUNDLE + ':27:5', MAP],
  ...caseFrames,
  ['node::Start', NODE],
  ['__libc_start_call_main', LIBC],
];

const TEXT = [
  // Two samples inside the reviver's internalizer, one of them under a libc call it made.
  block(4242, 4242, 1.0, parse([['v8::internal::JsonParseInternalizer::InternalizeJsonProperty<(v8::internal::JsonParseInternalizer::ReviverMode)0>', NODE]])),
  block(4242, 4242, 1.00025, parse([['__memcmp_evex_movbe', LIBC], ['v8::internal::StringTable::LookupKey', NODE], ['v8::internal::JsonParseInternalizer::Internalize', NODE]])),
  // A page fault in the scavenger: GC time, the kernel's frames charged to it.
  block(4242, 4242, 1.0005, parse([['asm_exc_page_fault', '[kernel.kallsyms]'], ['v8::internal::ScavengerCollector::CollectGarbage', NODE], ['v8::internal::Heap::CollectGarbage', NODE]])),
  // The reviver itself, TurboFan code.
  block(4242, 4242, 1.00075, [['JS:*reviver ' + BUNDLE + ':26:20', MAP], ['v8::internal::Execution::Call', NODE], ...parse([['v8::internal::JsonParseInternalizer::InternalizeJsonProperty<(v8::internal::JsonParseInternalizer::ReviverMode)0>', NODE]]).slice(1)]),
  // A compiler thread: not the thread that ran the JavaScript.
  block(4242, 4250, 1.0008, [['v8::internal::compiler::Pipeline::Run', NODE], ['start_thread', LIBC]]),
].join('\n');

const locate: FrameLocator = (frame) => {
  if (frame.url !== BUNDLE) return undefined;
  const line = frame.lineNumber + 1;
  return line >= 200 ? { source: 'packages/core/src/measure.ts', line, column: 1, inBundle: true } : { source: 'bench/json-reviver/index.ts', line, column: 1, inBundle: true };
};

function nativeSummary(samples: PerfSample[]) {
  const { profile, categories, unresolvedSamples } = nativeToCpuProfile(samples, { symbols: SYMBOLS.node });
  const frames: NodeFramesOptions = { categoryOf: (id) => categories.get(id), inlined: inlinedIntoTimedPath };
  return { profile, unresolvedSamples, summary: summarize(profile, { locate, frames }), tree: callTree(profile, { locate, frames, minShare: 0 }) };
}

describe('perf script text', () => {
  it('parses every sample with its pid, thread, period and frames, innermost first', () => {
    const { samples, unreadable } = parsePerfScript(TEXT);
    expect(unreadable).toBe(0);
    expect(samples.map((s) => s.tid)).toEqual([4242, 4242, 4242, 4242, 4250]);
    expect(samples[0]!.periodNs).toBe(250000);
    expect(samples[0]!.frames[0]!.symbol).toMatch(/^v8::internal::JsonParseInternalizer::InternalizeJsonProperty</);
    expect(samples[0]!.frames.at(-1)).toMatchObject({ symbol: '__libc_start_call_main', dso: LIBC });
  });

  it('reads an unresolved frame as no symbol, with its library', () => {
    const { samples } = parsePerfScript(block(7, 7, 2, [['[unknown]', '/opt/deno/deno']]));
    expect(samples[0]!.frames[0]).toEqual({ ip: '1000', dso: '/opt/deno/deno' });
  });
});

describe('naming and categories', () => {
  it("names V8's JIT code by function and source line, and leaves its category to the source", () => {
    const f = nameFrame({ ip: '1', symbol: `JS:*parseArrow ${BUNDLE}:27:5`, dso: MAP });
    expect(f).toMatchObject({ javascript: true, callFrame: { functionName: 'parseArrow', url: BUNDLE, lineNumber: 26, columnNumber: 4 } });
    expect(nameFrame({ ip: '1', symbol: 'JS:o+ file:///x/bundle.mjs:1:1', dso: MAP }).callFrame).toMatchObject({ functionName: '', url: 'file:///x/bundle.mjs' });
    expect(nameFrame({ ip: '1', symbol: 'Builtin:JsonParse', dso: MAP }).category).toBe('engine');
  });

  it("names JavaScriptCore's jitdump code by function and tier", () => {
    expect(nameFrame({ ip: '1', symbol: 'JSC-DFG: reviver#C4jfZR', dso: MAP })).toMatchObject({ category: 'benchmark', callFrame: { functionName: 'reviver [DFG]' } });
    expect(nameFrame({ ip: '1', symbol: 'JSC-Baseline: /tmp/x/bundle.mjs#AbCd', dso: MAP }).callFrame.functionName).toBe('(program bundle.mjs) [Baseline]');
    expect(nameFrame({ ip: '1', symbol: 'JSC-Thunk: DefaultCall', dso: MAP }).category).toBe('engine');
  });

  it('puts engine, GC and runtime symbols in their categories and leaves system code to its caller', () => {
    expect(nativeCategory('v8::internal::JsonParseInternalizer::Internalize', SYMBOLS.node)).toBe('engine');
    expect(nativeCategory('v8::internal::ScavengerCollector::CollectGarbage', SYMBOLS.node)).toBe('gc');
    expect(nativeCategory('v8::internal::MarkCompactCollector::Sweep', SYMBOLS.node)).toBe('gc');
    expect(nativeCategory('JSC::Heap::collectInMutatorThread', SYMBOLS.bun)).toBe('gc');
    expect(nativeCategory('JSC::JSONParse', SYMBOLS.bun)).toBe('engine');
    expect(nativeCategory('node::Start', SYMBOLS.node)).toBe('runtime');
    expect(nativeCategory('kj::_::RunnableImpl::run', SYMBOLS.workerd)).toBe('runtime');
    expect(nativeCategory('__memcmp_evex_movbe', SYMBOLS.node)).toBeUndefined();
  });

  it('folds C++ template arguments, so that a function renamed by its template parameters is one frame across releases', () => {
    expect(foldTemplateArguments('v8::internal::JsonParseInternalizer::InternalizeJsonProperty<(v8::internal::JsonParseInternalizer::WithOrWithoutSource)1>')).toBe('v8::internal::JsonParseInternalizer::InternalizeJsonProperty<…>');
    expect(foldTemplateArguments('v8::internal::StringTable::LookupKey<v8::internal::SeqSubStringKey<v8::internal::SeqOneByteString>, v8::internal::Isolate>')).toBe('v8::internal::StringTable::LookupKey<…>');
    expect(foldTemplateArguments('std::vector<int>::operator<<')).toBe('std::vector<…>::operator<<');
    expect(foldTemplateArguments('v8::internal::Foo::operator<')).toBe('v8::internal::Foo::operator<');
    expect(foldTemplateArguments('kj::Own<T>::operator->')).toBe('kj::Own<…>::operator->');
    expect(nameFrame({ ip: '1', symbol: 'v8::internal::JsonParser<unsigned char>::ParseJsonValue<true>', dso: NODE }).callFrame.functionName).toBe('v8::internal::JsonParser<…>::ParseJsonValue<…>');
  });

  it('reads the qualified name of a C++ name perf left mangled', () => {
    expect(nestedName('_ZN2v88internal11PropertyKeyC2INS0_6ObjectENS0_12DirectHandleEQsr3stdE16is_convertible_vIT0_IT_ENS4_IS6_EEEEEPNS0_7IsolateES7_')).toBe('v8::internal::PropertyKey::PropertyKey<…>');
    expect(nestedName('_ZN2v88internal7Factory20InternalizeSubStringINS0_16SeqOneByteStringENS0_6HandleEQsr3stdE16is_convertible_vIT0_IT_ENS0_12DirectHandleIS6_EEEEENS4_INS0_6StringEEES7_jjb')).toBe('v8::internal::Factory::InternalizeSubString<…>');
    expect(nestedName('_ZNK2v88internal3Foo3barEv')).toBe('v8::internal::Foo::bar');
    expect(nestedName('_ZN2v88internal3FooD2Ev')).toBe('v8::internal::Foo::~Foo');
    expect(nestedName('v8::internal::Foo::bar')).toBe('v8::internal::Foo::bar');
    expect(nestedName('_Z3fooi')).toBe('_Z3fooi');
    expect(nameFrame({ ip: '1', symbol: '_ZN2v88internal11PropertyKeyC2INS0_6ObjectEEEPNS0_7IsolateE', dso: NODE }, SYMBOLS.node)).toMatchObject({ category: 'engine', callFrame: { functionName: 'v8::internal::PropertyKey::PropertyKey<…>' } });
  });

  it("demangles the samples' names after perf script (--no-demangle) as perf would have: no parameters, Rust's hash dropped, what c++filt cannot read left for nestedName", () => {
    const cxxfilt = findCxxFilt();
    if (!cxxfilt) throw new Error('c++filt is not on PATH: install binutils (`sudo apt-get install -y binutils`)');
    const constrained = '_ZN2v88internal11PropertyKeyC2INS0_12DirectHandleEQsr3stdE16is_convertible_vIT_INS0_4NameEENS3_IS5_EEEEEPNS0_7IsolateES6_';
    const samples: PerfSample[] = [
      {
        pid: 1,
        tid: 1,
        time: 0,
        periodNs: 250_000,
        frames: [
          { ip: '1', symbol: '_ZN2v88internal9Execution4CallEPNS0_7IsolateENS0_12DirectHandleINS0_6ObjectEEES6_NS_4base6VectorIKS6_EE', dso: NODE },
          { ip: '2', symbol: '_ZN13temporal_capi7instant3ffi7Instant29to_ixdtf_string_with_provider17h37e7102475480d2bE', dso: NODE },
          { ip: '3', symbol: constrained, dso: NODE },
          { ip: '4', symbol: 'Builtins_JsonParse', dso: NODE },
          { ip: '5', dso: NODE },
          // workerd's Rust (v0 mangling, which perf leaves mangled).
          { ip: '6', symbol: '_RNvNtCsbyKmY2wN7DJ_14workerd_server5entry5serve', dso: '/opt/workerd' },
          { ip: '7', symbol: '_RNvMs1_NtNtCsJ1NiIcemM6_11kj_rs_tokio3ffi6bridgeNtB5_19TokioAsyncIoContext8block_on', dso: '/opt/workerd' },
        ],
      },
    ];
    demangleSamples(samples, cxxfilt);
    expect(samples[0]!.frames.map((f) => f.symbol)).toEqual([
      'v8::internal::Execution::Call',
      'temporal_capi::instant::ffi::Instant::to_ixdtf_string_with_provider',
      constrained,
      'Builtins_JsonParse',
      undefined,
      // Without the crate hashes, which change with every build.
      'workerd_server::entry::serve',
      '<kj_rs_tokio::ffi::bridge::TokioAsyncIoContext>::block_on',
    ]);
    expect(nameFrame(samples[0]!.frames[2]!).callFrame.functionName).toBe('v8::internal::PropertyKey::PropertyKey<…>');
    // A Rust method's leading <Type> is its type, not template arguments to fold.
    expect(nameFrame(samples[0]!.frames[6]!, SYMBOLS.workerd)).toMatchObject({ callFrame: { functionName: '<kj_rs_tokio::ffi::bridge::TokioAsyncIoContext>::block_on' }, category: 'runtime' });
    expect(nameFrame(samples[0]!.frames[5]!, SYMBOLS.workerd).category).toBe('runtime');
  });

  it('groups a stripped binary by library instead of showing [unknown]', () => {
    const samples: PerfSample[] = [{ pid: 7, tid: 7, time: 1, periodNs: 250000, frames: [...['1', '2', '3'].map((ip): PerfFrame => ({ ip, dso: '/opt/deno/deno' })), { ip: '4', symbol: `JS:*f ${BUNDLE}:27:1`, dso: MAP }, { ip: '5', dso: '/opt/deno/deno' }] }];
    const { tree, unresolvedSamples } = nativeSummary(samples);
    expect(unresolvedSamples).toBe(1);
    const names: string[] = [];
    const walk = (n: { name: string; children: typeof n[] }): void => {
      names.push(n.name);
      n.children.forEach(walk);
    };
    walk(tree.root);
    // Three consecutive addresses in deno are one frame; the JS frame between splits them.
    expect(names).toEqual(['(root)', 'deno (no symbols)', 'f', 'deno (no symbols)']);
    expect(JSON.stringify(tree)).not.toContain('[unknown]');
  });
});

describe('a native profile as a call tree and a summary', () => {
  const all = parsePerfScript(TEXT).samples;
  const main = all.filter((s) => s.tid === 4242);
  const { summary, tree } = nativeSummary(main);

  it('weighs each sample by its period and names the engine functions with their shares', () => {
    expect(summary.samples).toBe(4);
    expect(summary.totalMs).toBeCloseTo(1, 6);
    const internalize = summary.functions.find((f) => f.name === 'v8::internal::JsonParseInternalizer::InternalizeJsonProperty<…>');
    expect(internalize).toMatchObject({ category: 'engine', selfShare: 0.25 });
    expect(summary.byCategory.gc.share).toBeCloseTo(0.25, 9);
    // libc's memcmp under V8's string table is the engine's time.
    expect(summary.functions.find((f) => f.name === '__memcmp_evex_movbe')?.category).toBe('engine');
    expect(summary.functions.find((f) => f.name === 'asm_exc_page_fault')?.category).toBe('gc');
    // The suite's frames are mapped to their source; the harness's to rtbench's.
    expect(summary.functions.find((f) => f.name === 'reviver')).toMatchObject({ category: 'benchmark', location: 'bench/json-reviver/index.ts:26' });
    expect(summary.functions.find((f) => f.name === 'parseArrow')?.category).toBe('benchmark');
    expect(summary.functions.find((f) => f.name === 'sample')?.category).toBe('harness');
  });

  it("keeps engine frames under the harness's timed loop with the case inlined into it in the engine, and charges the harness's own native calls (its clock) to the harness", () => {
    const inlined: PerfSample = { ...main[0]!, frames: main[0]!.frames.filter((f) => !f.symbol?.startsWith('JS:*parseArrow')) };
    const clock: PerfSample = { ...main[0]!, frames: [{ ip: '1', symbol: '__vdso_clock_gettime', dso: '[vdso]' }, { ip: '2', symbol: 'workerd::dateNow', dso: '/opt/workerd' }, ...caseFrames.slice(1).map(([symbol, dso]) => ({ ip: '3', symbol, dso }))] };
    const { summary: s } = nativeSummary([inlined, clock]);
    expect(s.functions.find((f) => f.name === 'runSync (case code inlined into it)')?.category).toBe('benchmark');
    expect(s.functions.find((f) => f.name.startsWith('v8::internal::JsonParseInternalizer'))?.category).toBe('engine');
    expect(s.functions.find((f) => f.name === 'workerd::dateNow')?.category).toBe('harness');
  });

  it("starts a stack at the harness's outermost frame, so that the runtime's own frames above it (which differ between releases) do not split the tree", () => {
    const [a] = main;
    const b: PerfSample = { ...a!, frames: [...a!.frames.slice(0, -2), { ip: '9', symbol: 'v8::internal::InvokeWithTryCatch', dso: NODE }, ...a!.frames.slice(-2)] };
    const inHarness = (f: NamedFrame): boolean => f.javascript === true && locate(f.callFrame)?.source === 'packages/core/src/measure.ts';
    const { profile } = nativeToCpuProfile([a!, b], { isHarnessStart: inHarness });
    const root = profile.nodes[0]!;
    expect(root.children!.map((id) => profile.nodes[id - 1]!.callFrame.functionName)).toEqual(['sample']);
    expect(profile.nodes.some((n) => n.callFrame.functionName === 'node::Start')).toBe(false);
    // Without the harness's frames, the whole stack is kept.
    expect(nativeToCpuProfile([a!, b]).profile.nodes[0]!.children!.map((id) => profile.nodes.length && nativeToCpuProfile([a!, b]).profile.nodes[id - 1]!.callFrame.functionName)).toEqual(['__libc_start_call_main']);
  });

  it("merges the harness's frames down to its timed loop into one frame, so that two releases that inline them differently give trees that line up", () => {
    // As node@24: runSync inlined into the sampler, the case's code into a timed loop; as node@26: runSync a frame of its own, called through V8's plumbing.
    const inlinedArm = all.filter((s) => s.tid === 4242).map((s) => ({ ...s, frames: s.frames.filter((f) => !f.symbol?.startsWith('JS:^runSync')).map((f) => (f.symbol?.startsWith('JS:*parseArrow') ? { ...f, symbol: `JS:*timedLoop ${BUNDLE}:240:3` } : f)) }));
    const ownFrameArm = all.filter((s) => s.tid === 4242).map((s) => {
      const at = s.frames.findIndex((f) => f.symbol?.startsWith('JS:^runSync'));
      return { ...s, frames: [...s.frames.slice(0, at + 1), { ip: '7', symbol: 'Builtins_InterpreterEntryTrampoline', dso: NODE }, ...s.frames.slice(at + 1)] };
    });
    const harnessStart = (f: NamedFrame): boolean => f.javascript === true && locate(f.callFrame)?.source === 'packages/core/src/measure.ts';
    const treeOf = (samples: PerfSample[], merged: boolean) => {
      const { profile, categories } = nativeToCpuProfile(samples, { isHarnessStart: harnessStart, ...(merged ? { harnessKind: harnessFrames(locate) } : {}) });
      const frames: NodeFramesOptions = { categoryOf: (id) => categories.get(id), inlined: inlinedIntoTimedPath };
      return callTree(profile, { locate, frames, minShare: 0 });
    };
    // The frames of the second arm the differential view finds no match for in the first (shown as new), and their share.
    const unmatched = (base: ReturnType<typeof treeOf>, other: ReturnType<typeof treeOf>): { names: string[]; share: number } => {
      const names: string[] = [];
      let share = 0;
      const walk = (f: ReturnType<typeof diffTree>): void => {
        if (f.baseShare !== 0) return f.children.forEach(walk);
        names.push(f.name);
        share += f.share;
      };
      diffTree(base, other).children.forEach(walk);
      return { names, share };
    };
    // Unmerged, everything below the sampler differs by call path: the whole of the second arm shows as new.
    expect(unmatched(treeOf(inlinedArm, false), treeOf(ownFrameArm, false))).toEqual({ names: ['Builtins_InterpreterEntryTrampoline'], share: 1 });
    // Merged: one frame, the case's, with the same engine frames under it in both arms; what differs is the case's
    // own function, inlined into the timed loop in the first arm and not in the second.
    const base = treeOf(inlinedArm, true);
    const other = treeOf(ownFrameArm, true);
    expect(base.root.children.map((c) => [c.name, c.category])).toEqual([[TIMED_LOOP, 'benchmark']]);
    expect(other.root.children.map((c) => [c.name, c.category])).toEqual([[TIMED_LOOP, 'benchmark']]);
    expect(unmatched(base, other).names).toEqual(['parseArrow']);
    // Without that difference, nothing is new.
    const inlinedAlike = ownFrameArm.map((s) => ({ ...s, frames: s.frames.map((f) => (f.symbol?.startsWith('JS:*parseArrow') ? { ...f, symbol: `JS:*timedLoop ${BUNDLE}:240:3` } : f)) }));
    expect(unmatched(base, treeOf(inlinedAlike, true))).toEqual({ names: [], share: 0 });
    // The engine under the case stays the engine's.
    expect(summarize(nativeToCpuProfile(ownFrameArm, { isHarnessStart: harnessStart, harnessKind: harnessFrames(locate) }).profile, { locate }).byCategory.harness.share).toBe(0);
  });

  it("keeps the harness's frames that are not on its timed path (its clock, its protocol) as they are", () => {
    const clock: PerfSample = { ...main[0]!, frames: [{ ip: '1', symbol: '__vdso_clock_gettime', dso: '[vdso]' }, { ip: '2', symbol: 'workerd::dateNow', dso: '/opt/workerd' }, ...caseFrames.slice(1).map(([symbol, dso]) => ({ ip: '3', symbol, dso }))] };
    const { profile } = nativeToCpuProfile([clock], { harnessKind: harnessFrames(locate) });
    expect(profile.nodes.map((n) => n.callFrame.functionName)).not.toContain(TIMED_LOOP);
  });

  it('is a manifest entry the schema accepts, with what it resolved, and diffs by engine function', () => {
    const result: NativeCaseResult = {
      status: 'ok',
      path: '/x/a.native.cpuprofile',
      method: 'perf record',
      window: { method: 'markers', kept: 4, total: 5, windowMs: 1000, profileMs: 1 },
      summary,
      tree,
      resolution: { periodUs: 250, samples: 4, otherThreadSamples: 1, unresolvedShare: 0, note: 'symbols' },
      timings: { recordMs: 1500, scriptMs: 400, foldMs: 50 },
    };
    const entry = manifestEntry('c', 'node@26', result, 'a.native.cpuprofile');
    const manifest = parseProfileManifest(JSON.parse(JSON.stringify(profileManifest('r', [], [], [], [], [entry]))), 'profiles.json');
    expect(manifest.native?.[0]?.resolution).toMatchObject({ samples: 4, otherThreadSamples: 1, periodUs: 250 });
    const other = nativeSummary(main.slice(0, 2)).summary;
    const diff = diffProfiles(summary, other);
    expect(diff.functions[0]!.category === 'engine' || diff.functions[0]!.category === 'gc').toBe(true);
  });
});

describe('jitdump', () => {
  it("reads JavaScriptCore's code loads and moves into perf-map lines", () => {
    const header = Buffer.alloc(40);
    header.writeUInt32LE(0x4a695444, 0);
    header.writeUInt32LE(1, 4);
    header.writeUInt32LE(40, 8);
    header.writeUInt32LE(555, 20);
    const load = (addr: bigint, size: bigint, index: bigint, name: string): Buffer => {
      const nameBytes = Buffer.from(`${name}\0`);
      const r = Buffer.alloc(56 + nameBytes.length + 4);
      r.writeUInt32LE(0, 0);
      r.writeUInt32LE(r.length, 4);
      r.writeBigUInt64LE(addr, 24);
      r.writeBigUInt64LE(addr, 32);
      r.writeBigUInt64LE(size, 40);
      r.writeBigUInt64LE(index, 48);
      nameBytes.copy(r, 56);
      return r;
    };
    const move = Buffer.alloc(64);
    move.writeUInt32LE(1, 0);
    move.writeUInt32LE(64, 4);
    move.writeBigUInt64LE(0x7000n, 32);
    move.writeBigUInt64LE(0x9000n, 40);
    move.writeBigUInt64LE(2n, 56);
    const data = Buffer.concat([header, load(0x7f00n, 0x40n, 1n, 'JSC-DFG: reviver#C4jfZR'), load(0x7000n, 0x20n, 2n, 'JSC-Thunk: DefaultCall'), move]);
    expect(perfMapLines(parseJitdump(data))).toBe('7f00 40 JSC-DFG: reviver#C4jfZR\n9000 20 JSC-Thunk: DefaultCall\n');
    expect(() => parseJitdump(Buffer.from('nope, not one at all, not forty bytes long'))).toThrow(/not a jitdump/);
  });
});
