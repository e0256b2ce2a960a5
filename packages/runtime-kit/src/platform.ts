/**
 * The platforms rtbench knows, named as Node.js names them
 * (`${process.platform}-${process.arch}`), and what a tool declares about
 * where it works. Code that depends on the host takes the platform as a
 * value, so a test can ask about every platform without patching globals.
 * The table of what works where: docs/platforms.md.
 */

/** The platforms runtimes are published for on npm and rtbench resolves them for. */
export const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64'] as const;

export type Platform = (typeof PLATFORMS)[number];

/** "linux-x64" from Node's words for the operating system and the CPU. */
export function platformName(os: string, arch: string): string {
  return `${os}-${arch}`;
}

/** This machine's platform. */
export function hostPlatform(): string {
  return platformName(process.platform, process.arch);
}

export function isPlatform(name: string): name is Platform {
  return (PLATFORMS as readonly string[]).includes(name);
}

/** npm's --os and --cpu for a platform: Node's words, which npm shares. */
export function npmPlatformArgs(platform: Platform): string[] {
  const [os, cpu] = platform.split('-') as [string, string];
  return [`--os=${os}`, `--cpu=${cpu}`, ...(os === 'linux' ? ['--libc=glibc'] : [])];
}

/**
 * Where a measurer or host tool works, declared beside it: the platforms,
 * and the sentence a user reads elsewhere, which says why and what to do
 * instead ("instruction counts need valgrind, which does not run on macOS;
 * measure time instead").
 */
export interface PlatformSupport {
  readonly platforms: readonly Platform[];
  readonly elsewhere: string;
}

/** Works on every platform rtbench knows. */
export const EVERY_PLATFORM: PlatformSupport = { platforms: PLATFORMS, elsewhere: '' };

/** Linux only (process groups and /proc, cgroups, perf). */
export function linuxOnly(elsewhere: string): PlatformSupport {
  return { platforms: PLATFORMS.filter((p) => p.startsWith('linux-')), elsewhere };
}

/** Why `what` cannot work on `platform`, in one line; undefined when it can. */
export function refusedOn(what: string, support: PlatformSupport, platform: string): string | undefined {
  if ((support.platforms as readonly string[]).includes(platform)) return undefined;
  return `${what} does not work on ${platform}: ${support.elsewhere}`;
}
