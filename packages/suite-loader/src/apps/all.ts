/**
 * The frameworks rtbench recognises, in the order a folder is tried against
 * them, one home each: a framework it builds and serves declares its plan
 * and build too (framework.ts says what); one it only recognises (Nuxt) is
 * refused in one line.
 */
import type { AppFramework } from './framework.ts';
import { packagesInWords, type Framework } from './framework-app.ts';
import astro from './astro/astro.ts';
import next from './next/next.ts';
import nuxt from './nuxt.ts';
import reactRouter from './react-router/react-router.ts';
import sveltekit from './sveltekit/sveltekit.ts';

export const FRAMEWORKS: readonly Framework[] = [next, sveltekit, reactRouter, astro, nuxt];

/** Whether rtbench builds and serves a framework's apps, or only recognises them. */
export const isBuilt = (framework: Framework): framework is AppFramework => 'plan' in framework;

/** The frameworks' packages, as a refusal names what a folder's package.json lacks. */
export const FRAMEWORK_PACKAGES_IN_WORDS = packagesInWords(FRAMEWORKS);
