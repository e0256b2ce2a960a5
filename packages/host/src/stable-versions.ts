/** A package's releases as the npm registry's list gives them, reduced to the stable ones in order (the releases a runtime or a library is measured at). */
const STABLE = /^(\d+)\.(\d+)\.(\d+)$/;

/** Orders stable versions numerically (24.10.0 after 24.9.0); prereleases and other strings are dropped. */
export function stableVersionsInOrder(versions: readonly string[]): string[] {
  const parsed = versions.flatMap((v) => {
    const m = STABLE.exec(v);
    return m ? [{ v, key: [Number(m[1]), Number(m[2]), Number(m[3])] as const }] : [];
  });
  parsed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  return parsed.map((p) => p.v);
}
