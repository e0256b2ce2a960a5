/**
 * TypeScript's compiler API for the scripts, loaded with require: imported
 * as an ES module, Node first scans its 9 MB CommonJS file for the names it
 * exports (about 0.4 CPU-s of every script and test that parses the tree).
 * Types come from `import type * as TS from 'typescript'`.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

const ts: typeof TS = createRequire(import.meta.url)('typescript') as typeof TS;
export default ts;
