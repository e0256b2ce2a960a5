/**
 * sha256 of a file, streamed and remembered per (path, size, mtime), so one
 * run hashes each binary once, and on disk per file identity, so the next
 * start does not either (runtime-kit file-facts.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { rememberedFact } from '@rtbench/process';

const hashes = new Map<string, Promise<string>>();

/** Hex sha256 of the file at `path` (a runtime binary: the store's check and the saved run share one hash). */
export function sha256File(path: string): Promise<string> {
  const { size, mtimeMs } = statSync(path);
  const key = `${path}:${size}:${mtimeMs}`;
  let cached = hashes.get(key);
  if (!cached) {
    cached = rememberedFact(path, 'sha256', () => hashFile(path), isHex);
    // A failed read is not remembered: the next call tries again.
    cached.catch(() => hashes.delete(key));
    hashes.set(key, cached);
  }
  return cached;
}

const isHex = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
