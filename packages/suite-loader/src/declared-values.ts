/**
 * The cases a brought file declares, in a comment, to return a value that is
 * random (`crypto.randomUUID()`, `Math.random()`) or different on each
 * runtime by design (a version string): one line each,
 *
 *     // rtbench: random uuid / *
 *     // rtbench: per-runtime runtime version
 *
 * naming a case id as rtbench names it, `*` standing for any text. Such a
 * case's value is compared by its shape (adapters' value-shape.ts); the other
 * cases by their values.
 */
import type { DeclaredValue, ShapeOnly } from '@rtbench/adapters/value-shape';
import { UsageError } from '@rtbench/core/usage-error';

const DECLARATION = /^[ \t]*\/\/[ \t]*rtbench:[ \t]*(\S+)[ \t]*(.*?)[ \t]*$/gm;
const KINDS: readonly ShapeOnly[] = ['random', 'per-runtime'];

/** The declarations in a file's text; a `// rtbench:` line rtbench cannot read is refused in one line naming it. */
export function declaredValues(path: string, source: string): DeclaredValue[] {
  const out: DeclaredValue[] = [];
  for (const [line, kind, pattern] of source.matchAll(DECLARATION)) {
    if (!KINDS.includes(kind as ShapeOnly) || !pattern) {
      throw new UsageError(`${path}: ${JSON.stringify(line.trim())}: expected "// rtbench: random <case>" or "// rtbench: per-runtime <case>" (a case id, * for any text)`);
    }
    out.push({ pattern: pattern!, why: kind as ShapeOnly });
  }
  return out;
}
