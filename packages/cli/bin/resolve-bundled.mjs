// @ts-check
/**
 * A module resolve hook (node:module register, user-modules.mjs): an
 * `@rtbench/…` specifier the bundle has an entry for resolves to that entry,
 * from wherever it is imported; everything else resolves as usual.
 */

/** @type {Record<string, string>} */
let entries = {};

/** @param {{ entries: Record<string, string> }} data */
export function initialize(data) {
  entries = data.entries;
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => unknown} next
 */
export function resolve(specifier, context, next) {
  // Own keys only: a specifier such as "constructor" must not find Object's.
  const url = Object.hasOwn(entries, specifier) ? entries[specifier] : undefined;
  return url ? { url, format: 'module', shortCircuit: true } : next(specifier, context);
}
