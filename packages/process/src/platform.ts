/**
 * The platforms rtbench knows, named as Node.js names them
 * (`${process.platform}-${process.arch}`): a plug-in declares its npm
 * packages per platform (@rtbench/runtime-kit's npm-runtime.ts). Code that depends on the host takes
 * the platform as a value, so a test can ask about every platform without
 * patching globals. Where each tool works: @rtbench/host's platform-support.ts;
 * the table: docs/platforms.md.
 */

/** The platforms runtimes are published for on npm and rtbench resolves them for. */
export const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64'] as const;

export type Platform = (typeof PLATFORMS)[number];

/** This machine's platform: "linux-x64" from Node's words for the operating system and the CPU. */
export function hostPlatform(): string {
  return `${process.platform}-${process.arch}`;
}

export function isPlatform(name: string): name is Platform {
  return (PLATFORMS as readonly string[]).includes(name);
}
