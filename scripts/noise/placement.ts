/**
 * Memory placement and page size, without a JavaScript engine in the way.
 * A small C program (written to a temporary directory and compiled with the
 * system's cc) walks, in turn, every ~2 ms:
 *   - 3 MB in 4 KB pages (madvise NOHUGEPAGE), allocated at start,
 *   - 3 MB in 2 MB pages (madvise HUGEPAGE; the machine's THP mode is "madvise"),
 *   - 3 MB in 4 KB pages allocated *fresh* (new physical pages) every second,
 *   - 256 KB (inside the private L2; timed on a second pass, warm),
 * (the 3 MB walks carry on where they stopped, so together they cycle 9 MB:
 * beyond the private L2, within the L3 when the L3 is ours),
 *   - an integer loop,
 * and prints each one's time per step for every 50 ms block.
 *
 * Reading the result: if the two 4 KB buffers, allocated at different times,
 * switch between fast and slow together, the slow state is not where a
 * buffer's pages happen to lie; if the 2 MB-page buffer is spared, the cost is
 * in address translation (TLB misses and, under virtualisation, two-level
 * page walks); if it slows as much, it is the caches or memory themselves.
 *
 *   npx tsx scripts/noise/placement.ts [seconds=20] [cpu]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { f, loadavg, median, quantile, spearman } from './lib.ts';

const seconds = Number(process.argv[2] ?? 20);
const cpu = process.argv[3];

const source = String.raw`
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static uint64_t rng = 88172645463325252ull;
static uint64_t xs(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
/* A random cycle through n slots of 64 bytes (one per cache line). */
static uint32_t *make(size_t bytes, int advice) {
  void *p = mmap(0, bytes + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  uintptr_t a = ((uintptr_t)p + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1); /* 2 MB aligned */
  if (advice) madvise((void *)a, bytes, advice);
  uint32_t *b = (uint32_t *)a;
  size_t n = bytes / 64, stride = 16;
  uint32_t *order = malloc(n * sizeof *order);
  for (size_t i = 0; i < n; i++) order[i] = i;
  for (size_t i = n - 1; i > 0; i--) { size_t j = xs() % (i + 1); uint32_t t = order[i]; order[i] = order[j]; order[j] = t; }
  for (size_t i = 0; i < n; i++) b[order[i] * stride] = order[(i + 1) % n] * stride;
  free(order);
  return b;
}
static volatile uint32_t sink;
/* Each walk carries on from where it stopped, so over time it cycles through the whole buffer. */
static double walk(uint32_t *b, uint32_t *pos, int steps) { double t = now_ns(); uint32_t p = *pos; for (int i = 0; i < steps; i++) p = b[p]; *pos = p; sink = p; return (now_ns() - t) / steps; }
static double spin(int n) { double t = now_ns(); uint32_t s = 1; for (int i = 0; i < n; i++) s = s * 2654435761u + i; sink = s; return (now_ns() - t) / n; }
int main(int argc, char **argv) {
  double seconds = atof(argv[1]);
  size_t big = 3u << 20; /* 3 buffers of 3 MB: beyond the 2 MB L2, well within the 32 MB L3 */
  uint32_t *small4k = make(256u << 10, MADV_NOHUGEPAGE);
  uint32_t *old4k = make(big, MADV_NOHUGEPAGE);
  uint32_t *huge = make(big, MADV_HUGEPAGE);
  uint32_t *fresh = make(big, MADV_NOHUGEPAGE);
  uint32_t pa = 0, ph = 0, pf = 0, ps = 0;
  double start = now_ns(), lastFresh = start;
  while (now_ns() - start < seconds * 1e9) {
    if (now_ns() - lastFresh > 1e9) { munmap(fresh, big); fresh = make(big, MADV_NOHUGEPAGE); lastFresh = now_ns(); pf = 0; }
    double t = (now_ns() - start) / 1e6;
    double a = walk(old4k, &pa, 4000), h = walk(huge, &ph, 4000), fr = walk(fresh, &pf, 4000);
    walk(small4k, &ps, 4096); /* one full pass brings the 256 KB back into L2; the second is timed */
    double s = walk(small4k, &ps, 4000), i = spin(200000);
    printf("%.3f %.2f %.2f %.2f %.2f %.4f\n", t, a, h, fr, s, i);
  }
  FILE *m = fopen("/proc/self/smaps_rollup", "r"); char line[256];
  while (m && fgets(line, sizeof line, m)) if (!strncmp(line, "AnonHugePages", 13)) fprintf(stderr, "%s", line);
  return 0;
}
`;

const dir = mkdtempSync(join(tmpdir(), 'rtbench-noise-'));
writeFileSync(join(dir, 'walk.c'), source);
execFileSync('cc', ['-O2', '-o', join(dir, 'walk'), join(dir, 'walk.c')]);
console.log(`placement: ${seconds} s${cpu === undefined ? '' : ` pinned to CPU ${cpu}`}; ${new Date().toISOString()}; load average before: ${loadavg()}`);
const cmd = cpu === undefined ? [join(dir, 'walk'), String(seconds)] : ['taskset', '-c', cpu, join(dir, 'walk'), String(seconds)];
const out = execFileSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
console.log(`load average after: ${loadavg()}`);
const rows = out
  .trim()
  .split('\n')
  .map((l) => l.split(' ').map(Number) as [number, number, number, number, number, number]);
const names = ['3 MB, 4 KB pages, old', '3 MB, 2 MB pages', '3 MB, 4 KB pages, fresh each s', '256 KB (second pass)', 'integer loop'];
// 50 ms blocks: the median of each measure per block.
const blocks: number[][] = names.map(() => []);
for (let t0 = 0; t0 < seconds * 1000; t0 += 50) {
  const inBlock = rows.filter((r) => r[0] >= t0 && r[0] < t0 + 50);
  if (inBlock.length) names.forEach((_, k) => blocks[k]!.push(median(inBlock.map((r) => r[k + 1]!))));
}
console.log(`${rows.length} rounds, ${blocks[0]!.length} blocks of 50 ms`);
console.log('| walk | ns per step: p10 | median | p90 | Spearman with the old 4 KB walk (per 50 ms) |');
console.log('|---|--:|--:|--:|--:|');
names.forEach((name, k) => {
  const b = blocks[k]!;
  console.log(`| ${name} | ${f(quantile(b, 0.1), 2)} | ${f(median(b), 2)} | ${f(quantile(b, 0.9), 2)} | ${f(spearman(b, blocks[0]!), 2)} |`);
});
console.log(`old 4 KB walk per 50 ms, first 40 blocks: ${blocks[0]!.slice(0, 40).map((x) => f(x, 0)).join(' ')}`);
console.log(`2 MB-page walk per 50 ms, first 40 blocks: ${blocks[1]!.slice(0, 40).map((x) => f(x, 0)).join(' ')}`);
