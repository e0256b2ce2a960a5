/**
 * Checks the platform packages the runtime plug-ins declare against the npm
 * registry (docs/platforms.md): every package, and every optional dependency
 * that holds a binary, exists at the pinned version; a platform declared
 * without a package is checked to still have none at that version.
 *
 *   npx tsx scripts/platform-packages.ts
 *
 * One `npm view` per package (about 30), through your npm settings; prints a
 * line per declaration and exits 1 if any disagrees with the registry. Run by
 * hand, when a pin or a platform changes: no test asks a registry.
 */
import { execFileSync } from 'node:child_process';
import { isUnavailable } from '@rtbench/host/platform';
import { PLATFORMS } from '@rtbench/process';
import { runtimePlugins } from '@rtbench/runtime-registry';

/** Whether name@version is published (npm view prints the version, or fails with E404). */
function published(name: string, version: string): boolean {
  try {
    return execFileSync('npm', ['view', `${name}@${version}`, 'version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === version;
  } catch {
    return false;
  }
}

/** The package npm would install for a platform without a declared package: the pin's own name with the platform swapped. */
const guessed = (pinned: string, platform: string): string => pinned.replace('linux-x64', platform);

let disagreements = 0;
const say = (ok: boolean, line: string) => {
  if (!ok) disagreements++;
  console.log(`${ok ? 'ok  ' : 'NOT '} ${line}`);
};
for (const rt of runtimePlugins().flatMap((p) => p.npmRuntimes)) {
  for (const platform of PLATFORMS) {
    const entry = rt.platforms[platform];
    if (isUnavailable(entry)) {
      const name = guessed(rt.package, platform);
      say(name === rt.package || !published(name, rt.version), `${rt.spec} ${platform}: none declared (${entry.unavailable}); ${name}@${rt.version} is not on npm`);
      continue;
    }
    const names = [entry.package, ...(entry.binaryPackage ? [entry.binaryPackage] : [])];
    for (const name of names) say(published(name, rt.version), `${rt.spec} ${platform}: ${name}@${rt.version} is on npm`);
  }
}
process.exit(disagreements ? 1 : 0);
