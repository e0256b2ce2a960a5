/**
 * What to do about a cache folder rtbench refused (core's
 * UnsafeCacheError: owned by another user, or not a folder). The advice
 * depends on where the cache is: a checkout keeps it in .rtbench-cache/ beside
 * the code (XDG_CACHE_HOME does not move it); an installed rtbench in
 * $XDG_CACHE_HOME/rtbench.
 */
import type { UnsafeCacheError } from '@rtbench/core/usage-error';
import { cacheDir, inCheckout } from '../paths.ts';

export function unsafeCacheLine(error: UnsafeCacheError, checkout = inCheckout, cache = cacheDir): string {
  const fix = inCheckoutAdvice(error.dir, checkout, cache);
  return `${error.message}; ${fix}`;
}

function inCheckoutAdvice(dir: string, checkout: boolean, cache: string): string {
  const remove = `remove ${dir} (as its owner, or root) and rtbench makes it again`;
  return checkout ? `${remove}; this checkout keeps its cache in ${cache}` : `${remove}, or set XDG_CACHE_HOME to a folder of yours`;
}
