/**
 * A value a brought file declares random or different per runtime (a
 * `// rtbench: random <case>` comment, which suite-loader's declared-values.ts
 * reads, or `rtbench run --random <case>`): its content is not compared, its shape is. A UUID is compared as a
 * string of 36 characters, an object by its keys and their values' shapes,
 * so a case that starts returning something else still reads as different
 * work, and the other cases of the file are compared by their values as ever.
 */

/** Why a case's value is compared by its shape: it is random, or differs per runtime by design. */
export type ShapeOnly = 'random' | 'per-runtime';

/** A case pattern the file declared: `*` stands for any text, the rest is the case id as rtbench names it. */
export interface DeclaredValue {
  readonly pattern: string;
  readonly why: ShapeOnly;
}

/** What a shape-only case is digested by: the value's shape, and why its content is left out. */
class ValueShape {
  constructor(
    readonly why: ShapeOnly,
    readonly shape: unknown,
  ) {}
}

/** How deep a shape is followed: a random value is a leaf or a small record, not a graph. */
const MAX_DEPTH = 8;

function shapeOf(value: unknown, depth = 0): unknown {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string(${value.length})`;
  if (typeof value !== 'object') return typeof value;
  if (depth >= MAX_DEPTH) return 'object';
  if (Array.isArray(value)) return value.map((v) => shapeOf(v, depth + 1));
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = shapeOf((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

const globToRegExp = (pattern: string): RegExp => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** Why a case's value is compared by its shape alone, if the file declared it so. */
export function shapeOnlyFor(caseId: string, declared: readonly DeclaredValue[]): ShapeOnly | undefined {
  return declared.find((d) => globToRegExp(d.pattern).test(caseId))?.why;
}

/** The value as a shape-only case is digested. */
export function valueShape(value: unknown, why: ShapeOnly): ValueShape {
  return new ValueShape(why, shapeOf(value));
}

/** The warning said once per case and process: what is compared of its value, and what is not. */
export function shapeOnlyWarning(why: ShapeOnly): string {
  const declared = why === 'random' ? 'random' : 'different on each runtime';
  return `its value is declared ${declared} (--${why} or a "// rtbench: ${why} <case>" comment): the check that every runtime did the same work compares its shape (types, lengths, keys), not its content`;
}
