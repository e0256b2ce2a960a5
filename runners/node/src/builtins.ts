/**
 * Node's built-in modules as its CommonJS loader hands them out, for the
 * entry and its probes. An ESM `import … from 'node:fs'` makes node build the
 * module's ESM facade, which reads every export once, lazy getters included:
 * `fs.promises` and `fs.ReadStream` then load fs/promises, the streams and
 * readline in every case's process, about a third of what the runner's
 * bootstrap costs on node 26 (scripts/measure/independence/start-cpu.ts). `createRequire` works on
 * every node that runs ES modules and builds no facade.
 */
import { createRequire } from 'node:module';

export const nodeBuiltin: NodeJS.Require = createRequire(import.meta.url);
