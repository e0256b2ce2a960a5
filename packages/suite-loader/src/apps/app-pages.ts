/**
 * A framework app's page as compared across its two editions (docs/requests.md:
 * same work). The Node.js adapter's build and the Cloudflare adapter's are
 * two builds of one app: the page they render is the same, but the names a
 * build gives differ (a chunk's content hash, a build id), so each
 * framework masks its own (its home: sveltekit/sveltekit.ts, …) and nothing
 * else: another page, a missing section or a component one edition renders
 * and the other does not still differs.
 */
import type { ResponseNormalizer } from '@rtbench/core';

/** A page with each pattern's matches replaced by its mask, in order, the rest as it was. */
export const pageNamesMasked =
  (names: readonly (readonly [RegExp, string])[]): ResponseNormalizer =>
  ({ body }) =>
    names.reduce((out, [pattern, mask]) => out.replace(pattern, mask), body);
