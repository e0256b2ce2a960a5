/**
 * Reading string literals out of a binary, for facts a runtime does not
 * report about itself (workerd exposes no V8 version to the worker and prints
 * none). Literals in a binary's string pool are NUL-terminated, so a pattern
 * anchored on NUL at both ends matches whole literals only.
 */
import { createReadStream, statSync } from 'node:fs';
import { rememberedFact } from '@rtbench/process';

/** Longest literal a pattern may match; chunks overlap by this much. */
const OVERLAP = 256;

const cache = new Map<string, Promise<Map<string, number>>>();

/**
 * Every distinct literal in `path` that `pattern` matches (group 1 if the
 * pattern has one, else the whole match), with how often it occurs. The
 * pattern must be global and match fewer than 256 characters. Cached per
 * path, size and mtime in this process, and on disk per file identity
 * (file-facts.ts).
 */
export function findLiterals(path: string, pattern: RegExp): Promise<Map<string, number>> {
  if (!pattern.global) throw new Error('findLiterals needs a global pattern');
  const { size, mtimeMs } = statSync(path);
  const key = `${path}:${size}:${mtimeMs}:${pattern.source}`;
  let found = cache.get(key);
  if (!found) {
    found = rememberedFact(path, `literals ${pattern.source}`, async () => [...(await scan(path, pattern))], isCounts).then((entries) => new Map(entries));
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

const isCounts = (value: unknown): value is [string, number][] =>
  Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'number');

function scan(path: string, pattern: RegExp): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const counts = new Map<string, number>();
    let carry = '';
    const count = (text: string, final: boolean): void => {
      // Matches that start in the last OVERLAP characters are counted with the next chunk.
      const limit = final ? text.length : text.length - OVERLAP;
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        if (m.index >= limit) break;
        const literal = m[1] ?? m[0];
        counts.set(literal, (counts.get(literal) ?? 0) + 1);
      }
    };
    createReadStream(path, { highWaterMark: 8 << 20 })
      .on('data', (chunk) => {
        const text = carry + (chunk as Buffer).toString('latin1');
        count(text, false);
        carry = text.slice(-OVERLAP);
      })
      .on('error', reject)
      .on('end', () => {
        count(carry, true);
        resolve(counts);
      });
  });
}
