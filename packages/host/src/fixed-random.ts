/**
 * A preloaded library (LD_PRELOAD) that answers getrandom() and
 * getentropy() with the same bytes in every process, for instruction counts
 * on JavaScriptCore: bun draws OS randomness at start-up through libc (its
 * allocator's address randomization among others), and with it a whole
 * process counted bun's revivers ~1–2% apart from another doing the same work;
 * with these bytes fixed, six processes agreed to ±0.05–0.4%
 * (docs/instructions.md). Nothing secret runs in a counted process: the
 * suites are benchmarks. Built from its C source with the system's C compiler
 * on first use, into rtbench's program cache (named by the source's hash).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { whichOnPath } from '@rtbench/process';
import { storeProgram } from './program-cache.ts';

const SOURCE = `/* rtbench: the same "random" bytes in every process (instruction counts). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
static uint64_t state = 0x9e3779b97f4a7c15ull;
static void fill(void *buf, size_t n) {
  unsigned char *p = buf;
  for (size_t i = 0; i < n; i++) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; p[i] = (unsigned char)state; }
}
ssize_t getrandom(void *buf, size_t n, unsigned flags) { (void)flags; fill(buf, n); return (ssize_t)n; }
int getentropy(void *buf, size_t n) { fill(buf, n); return 0; }
long syscall(long nr, ...) {
  va_list ap;
  va_start(ap, nr);
  long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long), a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
  va_end(ap);
  if (nr == SYS_getrandom) { fill((void *)a1, (size_t)a2); return a2; }
  static long (*next)(long, ...);
  if (!next) next = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return next(nr, a1, a2, a3, a4, a5, a6);
}
`;

/** The library's path, built on first use under `dir`; or why it cannot be (no C compiler, a failed build). */
export function fixedRandomLibrary(dir: string): { path: string } | { reason: string } {
  const source = storeProgram(dir, 'fixed-random', '.c', SOURCE);
  const path = source.path.replace(/\.c$/, '.so');
  if (existsSync(path)) return { path };
  const cc = whichOnPath('cc') ?? whichOnPath('gcc') ?? whichOnPath('clang');
  if (!cc) return { reason: 'no C compiler (cc) on PATH to build it' };
  const partial = `${path}.${process.pid}.tmp`;
  const built = spawnSync(cc, ['-O2', '-shared', '-fPIC', '-o', partial, source.path, '-ldl'], { encoding: 'utf8', timeout: 60_000 });
  if (built.status !== 0) return { reason: `${cc} could not build it: ${(built.stderr || built.error?.message || '').trim().split('\n').slice(-1)[0]}` };
  renameSync(partial, path);
  return { path };
}
