/**
 * The frameworks rtbench builds and serves, one module each
 * (app-framework.ts says what a module declares); an app of a framework
 * framework-app.ts recognises but not listed here is refused in one line.
 */
import type { AppFramework } from './app-framework.ts';
import { astro } from './app-astro.ts';
import { next } from './app-next.ts';
import { reactRouter } from './app-react-router.ts';
import { sveltekit } from './app-sveltekit.ts';

export const APP_FRAMEWORKS: readonly AppFramework[] = [sveltekit, next, reactRouter, astro];
