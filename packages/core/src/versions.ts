/**
 * Stable versions as npm writes them (X.Y.Z, no prerelease): the releases a
 * runtime or a library is measured at. One pattern for the plug-in contract
 * (a release tag written as one) and the host (the registry's list reduced).
 */
const STABLE = /^(\d+)\.(\d+)\.(\d+)$/;

/** Whether `v` is written as a stable version, X.Y.Z. */
export function isStableVersion(v: string): boolean {
  return STABLE.test(v);
}

/** Orders stable versions numerically (24.10.0 after 24.9.0); prereleases and other strings are dropped. */
export function stableVersionsInOrder(versions: readonly string[]): string[] {
  const parsed = versions.flatMap((v) => {
    const m = STABLE.exec(v);
    return m ? [{ v, key: [Number(m[1]), Number(m[2]), Number(m[3])] as const }] : [];
  });
  parsed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  return parsed.map((p) => p.v);
}
