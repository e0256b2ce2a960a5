/**
 * `rtbench merge`: shard runs (--shard i/n, one per CI machine) combined into
 * one run, as if one machine had measured every case. Refused, in one line,
 * when the shards do not belong together: another suite, other code (another
 * rtbench commit, or another suite file of the same name: the bundles'
 * hashes differ), other variants or binaries (sha256), other options, a shard
 * missing or given twice, a case measured twice. A shard with no cases (more
 * shards than cases) belongs like any other. Each shard's machine and time
 * are kept (run.shards).
 */
import type { RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';

/** Options that must agree between shards (everything but the seed, the shard and the command line). */
function comparableOptions(run: RunRecord): string {
  const { seed: _seed, shard: _shard, ...rest } = run.options;
  return JSON.stringify(rest);
}

/** Variants as they ran: ids, flags and binaries by content. */
function comparableVariants(run: RunRecord): string {
  return JSON.stringify(run.variants.map((v) => [v.id, v.spec, v.flags, v.binarySha256 ?? null, v.version ?? null, v.unavailable ? 'unavailable' : 'ok']));
}

/** How `b` was made from other code than `a`, in words, or undefined: rtbench's commit or version, then the suite's bundles. */
function codeDifference(a: RunRecord, b: RunRecord): string | undefined {
  const made = (run: RunRecord): string => (run.git ? `rtbench commit ${run.git.commit.slice(0, 12)}` : run.rtbenchVersion ? `rtbench ${run.rtbenchVersion}` : 'an unknown rtbench');
  if (made(a) !== made(b)) return `made by ${made(b)}, not ${made(a)}`;
  for (const code of b.suiteCode ?? []) {
    const theirs = a.suiteCode?.find((c) => c.runtime === code.runtime && String(c.variants) === String(code.variants));
    if (theirs && theirs.sha256 !== code.sha256) return `other code for suite "${b.suite}" (its ${code.runtime} bundle is ${code.sha256}, not ${theirs.sha256}): another file of that name, or another version of it`;
  }
  return undefined;
}

export function mergeShards(runs: readonly { run: RunRecord; file: string }[]): RunRecord {
  if (runs.length < 2) throw new UsageError('rtbench merge: name two or more shard runs (made with --shard i/n)');
  const [first, ...rest] = runs;
  const shardOf = ({ run, file }: { run: RunRecord; file: string }) => {
    if (!run.options.shard) throw new UsageError(`${file} is not a shard run (made without --shard i/n)`);
    return run.options.shard;
  };
  const count = shardOf(first!).count;
  for (const other of rest) {
    const a = first!.run;
    const b = other.run;
    const why =
      (b.suite !== a.suite ? `suite "${b.suite}", not "${a.suite}"` : undefined) ??
      (b.mode !== a.mode ? `mode ${b.mode}, not ${a.mode}` : undefined) ??
      codeDifference(a, b) ??
      (comparableVariants(b) !== comparableVariants(a) ? 'other variants or binaries (ids, flags, versions or sha256 differ)' : undefined) ??
      (comparableOptions(b) !== comparableOptions(a) ? 'other options (time, warmup, rounds, schedule, measurer, filter…)' : undefined) ??
      (shardOf(other).count !== count ? `${shardOf(other).count} shards, not ${count}` : undefined);
    if (why) throw new UsageError(`${other.file} does not belong with ${first!.file}: ${why}`);
  }
  const seen = new Map<number, string>();
  for (const r of runs) {
    const { index } = shardOf(r);
    if (seen.has(index)) throw new UsageError(`shard ${index}/${count} is given twice: ${seen.get(index)} and ${r.file}`);
    seen.set(index, r.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new UsageError(`${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merged run must hold every case of the suite`);
  const caseOwner = new Map<string, string>();
  for (const r of runs) {
    for (const c of r.run.cases) {
      if (caseOwner.has(c.id)) throw new UsageError(`case "${c.id}" is in ${caseOwner.get(c.id)} and in ${r.file}: shards must not overlap`);
      caseOwner.set(c.id, r.file);
    }
  }

  const ordered = [...runs].sort((a, b) => shardOf(a).index - shardOf(b).index);
  const base = ordered[0]!.run;
  const statuses = ordered.map((r) => r.run.status);
  const { shard: _shard, ...options } = base.options;
  return {
    ...base,
    id: `${base.startedAt}-${base.suite}-merged-${count}`,
    status: statuses.includes('interrupted') ? 'interrupted' : statuses.includes('failed') ? 'failed' : 'complete',
    startedAt: ordered.map((r) => r.run.startedAt).sort()[0]!,
    finishedAt: ordered.map((r) => r.run.finishedAt).sort().at(-1)!,
    options,
    // Dealt round-robin, so the suite's order is shard 1's first case, shard 2's first, …, then the second of each.
    cases: interleave(ordered.map((r) => r.run.cases)),
    results: interleave(ordered.map((r) => r.run.cases)).flatMap((c) => ordered.flatMap((r) => r.run.results.filter((x) => x.caseId === c.id))),
    digestMismatches: ordered.flatMap((r) => r.run.digestMismatches),
    ...(ordered.some((r) => r.run.digestsRounded?.length) ? { digestsRounded: ordered.flatMap((r) => r.run.digestsRounded ?? []) } : {}),
    shards: ordered.map((r) => ({ index: shardOf(r).index, count, file: r.file, host: r.run.host, startedAt: r.run.startedAt, finishedAt: r.run.finishedAt, cases: r.run.cases.map((c) => c.id) })),
  };
}

/** [a1, a2], [b1] -> [a1, b1, a2] */
function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  for (let j = 0; lists.some((l) => j < l.length); j++) for (const l of lists) if (j < l.length) out.push(l[j]!);
  return out;
}
