/**
 * Shards of one matrix (each made with --shard i/n on its own machine) joined
 * into one folder: their runs copied under shard-<i>/, one state naming every
 * track. Refused, in one line, when they do not belong together: asked
 * differently, another shard count, a shard missing or given twice, a track
 * in two shards. Verdicts are drawn from the merged folder, so the false
 * discovery rate covers the whole matrix, not one shard at a time.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadMatrix, MatrixRefused, saveMatrix } from './state.ts';
import type { MatrixState } from './types.ts';

export function mergeMatrices(dirs: readonly string[], outDir: string): MatrixState {
  if (dirs.length < 2) throw new MatrixRefused('rtbench merge: name two or more shard folders of a release matrix (made with --shard i/n)');
  const shards = dirs.map((dir) => ({ dir, state: loadMatrix(dir) }));
  const first = shards[0]!;
  const count = first.state.shard?.count;
  for (const s of shards) {
    if (!s.state.shard) throw new MatrixRefused(`${s.dir} is not a shard (made without --shard i/n)`);
    if (s.state.shard.count !== count) throw new MatrixRefused(`${s.dir} is shard ${s.state.shard.index}/${s.state.shard.count}, not one of ${count}`);
    const differ = (Object.keys(first.state.identity) as (keyof MatrixState['identity'])[]).filter((k) => s.state.identity[k] !== first.state.identity[k]);
    if (differ.length) throw new MatrixRefused(`${s.dir} does not belong with ${first.dir}: asked differently (${differ.join(', ')})`);
  }
  const seen = new Map<number, string>();
  for (const s of shards) {
    const i = s.state.shard!.index;
    if (seen.has(i)) throw new MatrixRefused(`shard ${i}/${count} is given twice: ${seen.get(i)} and ${s.dir}`);
    seen.set(i, s.dir);
  }
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new MatrixRefused(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merged matrix holds every track`);
  const owner = new Map<string, string>();
  for (const s of shards) {
    for (const t of s.state.tracks) {
      if (owner.has(t.key)) throw new MatrixRefused(`track "${t.key}" is in ${owner.get(t.key)} and in ${s.dir}: shards must not overlap`);
      owner.set(t.key, s.dir);
    }
  }
  mkdirSync(outDir, { recursive: true });
  const ordered = [...shards].sort((a, b) => a.state.shard!.index - b.state.shard!.index);
  const tracks = ordered.flatMap(({ dir, state }) => {
    const sub = `shard-${state.shard!.index}`;
    mkdirSync(join(outDir, sub), { recursive: true });
    return state.tracks.map((t) => ({
      ...t,
      windows: t.windows.map((w) => ({
        releases: w.releases,
        runs: w.runs.flatMap((file) => {
          if (!existsSync(join(dir, file))) return [];
          copyFileSync(join(dir, file), join(outDir, sub, file));
          return [`${sub}/${file}`];
        }),
      })),
    }));
  });
  // Each shard kept the claims of its own tracks, and tracks never overlap: their claims join as they are.
  const claims = ordered.flatMap((s) => s.state.claims ?? []);
  const merged: MatrixState = { schema: 'rtbench.releases', version: 1, identity: first.state.identity, machines: [...new Set(ordered.flatMap((s) => s.state.machines))], mergedFrom: ordered.map((s) => s.dir), tracks, ...(claims.length ? { claims } : {}) };
  saveMatrix(outDir, merged);
  return merged;
}
