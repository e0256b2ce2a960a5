/**
 * @rtbench/host/platform: what a platform or a runtime can do: where a tool
 * works (the platforms), and the wording of what a runtime cannot do.
 */
export { EVERY_PLATFORM, linuxOnly, refusedOn, type PlatformSupport } from './platform-support.ts';
export { cannotMessage, isUnavailable, type CapabilityName, type Unavailable } from './capability.ts';
