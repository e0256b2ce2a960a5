/**
 * A framework app's page as compared across its two editions (docs/requests.md:
 * same work). The Node.js adapter's build and the Cloudflare adapter's are
 * two builds of one app: the page they render is the same, but the names a
 * build gives differ, so each framework's are masked and nothing else:
 * another page, a missing section or a component one edition renders and
 * the other does not still differs.
 * SvelteKit: the client's chunk and asset files under `_app/immutable/`
 * carry a content hash (`start.BxYz12Ab.js`), and the global its inline
 * start-up script sets is named by the build's version
 * (`__sveltekit_1x2y3z`, a timestamp unless the app fixes it), so each
 * build names them apart.
 */
import type { ResponseNormalizer } from '@rtbench/core';

/** SvelteKit's build names: a hashed file under _app/immutable/, and the version-named global. */
const SVELTEKIT_NAMES: readonly [RegExp, string][] = [
  [/(_app\/immutable\/[\w/-]*?[\w-]+)\.[\w-]{6,12}\.(js|css|mjs|woff2?|svg|png)/g, '$1.#.$2'],
  [/__sveltekit_[0-9a-z]+/g, '__sveltekit_#'],
];

/** A SvelteKit page with its build's names masked, the rest as it was. */
export const normalizeSvelteKitPage: ResponseNormalizer = ({ body }) => SVELTEKIT_NAMES.reduce((out, [pattern, mask]) => out.replace(pattern, mask), body);
