/**
 * C++ names demangled after `perf script`, not by it. perf demangles every
 * symbol of every binary it loads (node's ~164k, workerd's ~280k) to print a
 * few hundred: about half of its CPU time on a node profile. Run with
 * `--no-demangle`, it prints the mangled names, and the distinct ones that
 * the samples hold are demangled here in one call of binutils' `c++filt -p`
 * (no parameter lists: perf's own format, which prints the same names; the
 * demangler is the same library), and Rust's v0 names, which perf 6.1
 * leaves mangled, too. Without c++filt on PATH perf demangles as before.
 */
import { execFileSync } from 'node:child_process';
import { whichOnPath } from '@rtbench/process';
import type { PerfSample } from './perf-script.ts';

/** c++filt, when on PATH. */
export function findCxxFilt(path = process.env.PATH): string | undefined {
  return whichOnPath('c++filt', path);
}

/** An Itanium-mangled name (C++, and Rust's legacy scheme), or Rust's v0 scheme (`_R…`: workerd's Rust). */
const MANGLED = /^_[ZR]/;
/** The hash Rust's legacy mangling appends (`::h37e7102475480d2b`): perf drops it, and so does this. */
const RUST_HASH = /::h[0-9a-f]{16}$/;
/** The crate hashes of Rust's v0 names (`workerd_server[86a6d6afd135c7f5]::entry::serve`): they change with every build, and a comparison has to see one function. */
const CRATE_HASH = /\[[0-9a-f]{1,16}\]/g;

/** The samples' mangled symbols replaced by their demangled names, in place; a name c++filt cannot read stays as it is. */
export function demangleSamples(samples: readonly PerfSample[], cxxfilt: string): void {
  const mangled = new Set<string>();
  for (const s of samples) for (const f of s.frames) if (f.symbol !== undefined && MANGLED.test(f.symbol)) mangled.add(f.symbol);
  if (mangled.size === 0) return;
  const names = [...mangled];
  const out = execFileSync(cxxfilt, ['-p'], { input: `${names.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n');
  // c++filt answers one line per line read.
  if (out.length < names.length) throw new Error(`c++filt gave ${out.length} names for ${names.length}`);
  const demangled = new Map(names.map((n, i) => [n, out[i]!.replace(RUST_HASH, '').replace(CRATE_HASH, '')]));
  for (const s of samples) for (const f of s.frames) if (f.symbol !== undefined && mangled.has(f.symbol)) f.symbol = demangled.get(f.symbol)!;
}
