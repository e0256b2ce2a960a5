/**
 * A value's JSON (what JSON.stringify writes, without spacing) in parts: the
 * containers down to `depth` opened and closed part by part, anything deeper
 * one JSON.stringify each. A history of thousands of runs is written point
 * by point this way, never held as one string. For plain data (no toJSON, no
 * bigint), the parts joined are JSON.stringify's text.
 */

/** What JSON.stringify leaves out of an object and writes as null in an array. */
const unwritable = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

export function* jsonParts(value: unknown, depth: number): Generator<string> {
  if (depth <= 0 || value === null || typeof value !== 'object') {
    yield JSON.stringify(value);
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i) yield ',';
      const item: unknown = value[i];
      yield* unwritable(item) ? ['null'] : jsonParts(item, depth - 1);
    }
    yield ']';
    return;
  }
  yield '{';
  for (const [head, , item] of writtenEntries(value)) {
    yield head;
    yield* jsonParts(item, depth - 1);
  }
  yield '}';
}

/** An object's entries JSON.stringify writes, each with the text before its value (a comma after the first, the key). */
export function* writtenEntries(value: object): Generator<[head: string, key: string, item: unknown]> {
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (unwritable(item)) continue;
    yield [`${first ? '' : ','}${JSON.stringify(key)}:`, key, item];
    first = false;
  }
}
