/** sha256 of a file, streamed and remembered per (path, size, mtime), so one run hashes each binary once. */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';

const hashes = new Map<string, Promise<string>>();

/** Hex sha256 of the file at `path` (a runtime binary: the store's check and the saved run share one hash). */
export function sha256File(path: string): Promise<string> {
  const { size, mtimeMs } = statSync(path);
  const key = `${path}:${size}:${mtimeMs}`;
  let cached = hashes.get(key);
  if (!cached) {
    cached = new Promise((resolve, reject) => {
      const hash = createHash('sha256');
      createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('error', reject)
        .on('end', () => resolve(hash.digest('hex')));
    });
    // A failed read is not remembered: the next call tries again.
    cached.catch(() => hashes.delete(key));
    hashes.set(key, cached);
  }
  return cached;
}
