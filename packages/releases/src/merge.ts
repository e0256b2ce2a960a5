/**
 * Shards of one matrix (each made with --shard i/n on its own machine) joined
 * into one folder: their runs copied under shard-<i>/, one state naming every
 * track. Refused, in one line, when they do not belong together: asked
 * differently (the identity, or the tracks: ranges and suites), another shard
 * count, a shard missing or given twice, a track in two shards or in none;
 * when a run of a shard is damaged or lies outside it; and when --save is one
 * of the shards (or inside one, or holds one) or a folder the merge did not
 * make. Every run is checked before anything is written. Verdicts are drawn
 * from the merged folder, so the false discovery rate covers the whole
 * matrix, not one shard at a time.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { folderRuns, pathInFolder } from './folder-files.ts';
import { shardTracks } from './shard.ts';
import { MatrixRefused } from './refused.ts';
import { identityDifference, isMatrixFolder, loadMatrix, saveMatrix } from './state.ts';
import type { AskedTrack, MatrixState } from './types.ts';

/** A path as the file system knows it (links resolved as far as it exists). */
function realPath(path: string): string {
  const full = resolve(path);
  if (existsSync(full)) return realpathSync(full);
  const parent = dirname(full);
  return parent === full ? full : join(realPath(parent), full.slice(parent.length + 1));
}

/** Whether `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Refuses a --save that would overwrite a shard, or a folder the merge did not make. */
function checkTarget(dirs: readonly string[], outDir: string): void {
  const out = realPath(outDir);
  for (const dir of dirs) {
    const input = realPath(dir);
    if (within(out, input) || within(input, out)) throw new MatrixRefused(`--save ${outDir} ${out === input ? 'is' : within(out, input) ? 'lies inside' : 'holds'} the shard ${dir}: the merge would overwrite it; name a folder of its own`);
  }
  if (isMatrixFolder(outDir)) {
    if (!loadMatrix(outDir).mergedFrom) throw new MatrixRefused(`--save ${outDir} holds a release matrix that a merge did not make; name a folder of its own (a merge replaces only what a merge made)`);
  } else if (existsSync(outDir) && readdirSync(outDir).length) {
    throw new MatrixRefused(`--save ${outDir} holds files and no release matrix; name a new or empty folder`);
  }
}

/** What two lists of asked tracks differ in, said briefly ("node × a" in one only; "bun × b": range x there, y here). */
function askedDifference(a: readonly AskedTrack[], b: readonly AskedTrack[]): string | undefined {
  const only = (x: readonly AskedTrack[], y: readonly AskedTrack[]) => x.filter((t) => !y.some((u) => u.key === t.key)).map((t) => `"${t.key}"`);
  const [inA, inB] = [only(a, b), only(b, a)];
  if (inA.length || inB.length) return [inA.length ? `${inA.join(', ')} only in the first` : '', inB.length ? `${inB.join(', ')} only in this one` : ''].filter(Boolean).join('; ');
  for (const t of a) {
    const u = b.find((x) => x.key === t.key)!;
    if (u.range !== t.range) return `"${t.key}": range ${t.range} in the first, ${u.range} in this one`;
    if (u.suite !== t.suite) return `"${t.key}": suite ${t.suite} in the first, ${u.suite} in this one`;
  }
  if (a.some((t, i) => t.key !== b[i]!.key)) return 'the same tracks in another order (each shard holds other ones)';
  return undefined;
}

export function mergeMatrices(dirs: readonly string[], outDir: string): MatrixState {
  if (dirs.length < 2) throw new MatrixRefused('rtbench merge: name two or more shard folders of a release matrix (made with --shard i/n)');
  checkTarget(dirs, outDir);
  const shards = dirs.map((dir) => ({ dir, state: loadMatrix(dir) }));
  const first = shards[0]!;
  const count = first.state.shard?.count;
  for (const s of shards) {
    if (!s.state.shard) throw new MatrixRefused(`${s.dir} is not a shard (made without --shard i/n)`);
    if (s.state.shard.count !== count) throw new MatrixRefused(`${s.dir} is shard ${s.state.shard.index}/${s.state.shard.count}, not one of ${count}`);
    const differ = identityDifference(first.state.identity, s.state.identity, { there: `in ${first.dir}`, now: 'here' });
    if (differ.length) throw new MatrixRefused(`${s.dir} does not belong with ${first.dir}: asked differently (${differ.join('; ')})`);
    if (!s.state.asked) throw new MatrixRefused(`${s.dir} does not say which tracks its matrix asks (made by an older rtbench): run its releases command again, which measures nothing twice and records them`);
    const other = askedDifference(first.state.asked ?? [], s.state.asked);
    if (other) throw new MatrixRefused(`${s.dir} does not belong with ${first.dir}: they ask other tracks (${other})`);
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
    // A shard holds the tracks its command dealt it: a folder edited (or left behind by another command) does not.
    const dealt = shardTracks(s.state.asked!, s.state.shard).map((t) => t.key);
    const held = s.state.tracks.map((t) => t.key);
    if (dealt.join('\n') !== held.join('\n')) throw new MatrixRefused(`${s.dir} holds ${held.length ? held.map((k) => `"${k}"`).join(', ') : 'no track'}, not the tracks its command deals shard ${s.state.shard!.index}/${count} (${dealt.map((k) => `"${k}"`).join(', ') || 'none'}): run its releases command again`);
  }
  // Every run is read (and so checked) before anything is written.
  for (const { dir, state } of shards) {
    const { read } = folderRuns(dir);
    for (const t of state.tracks) for (const w of t.windows) for (const file of w.runs) read(file);
  }
  mkdirSync(outDir, { recursive: true });
  const ordered = [...shards].sort((a, b) => a.state.shard!.index - b.state.shard!.index);
  const tracks = ordered.flatMap(({ dir, state }) => {
    const sub = `shard-${state.shard!.index}`;
    return state.tracks.map((t) => ({
      ...t,
      windows: t.windows.map((w) => ({
        releases: w.releases,
        runs: w.runs.flatMap((file) => {
          const from = pathInFolder(dir, file);
          if (!existsSync(from)) return [];
          mkdirSync(dirname(join(outDir, sub, file)), { recursive: true });
          copyFileSync(from, join(outDir, sub, file));
          return [`${sub}/${file}`];
        }),
      })),
    }));
  });
  // Each shard kept the claims of its own tracks, and tracks never overlap: their claims join as they are.
  const keys = new Set(tracks.map((t) => t.key));
  const claims = ordered.flatMap((s) => s.state.claims ?? []).filter((c) => keys.has(c.track));
  const merged: MatrixState = { schema: first.state.schema, version: first.state.version, identity: first.state.identity, machines: [...new Set(ordered.flatMap((s) => s.state.machines))], asked: first.state.asked!, mergedFrom: ordered.map((s) => s.dir), tracks, ...(claims.length ? { claims } : {}) };
  saveMatrix(outDir, merged);
  return merged;
}
