/**
 * The frameworks rtbench builds and serves, one module each
 * (framework.ts says what a module declares); an app of a framework
 * framework-app.ts recognises but not listed here is refused in one line.
 */
import type { AppFramework } from './framework.ts';
import { astro } from './astro/astro.ts';
import { next } from './next/next.ts';
import { reactRouter } from './react-router/react-router.ts';
import { sveltekit } from './sveltekit/sveltekit.ts';

export const APP_FRAMEWORKS: readonly AppFramework[] = [sveltekit, next, reactRouter, astro];
