/**
 * What more than one framework's build uses: a package's entry as an
 * import finds it, and the stand-in for `cloudflare:workers` a Node.js
 * edition is built with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package's ESM entry in its folder: its exports' `.` import (or default), else its module or main field, else index.js. */
export function packageEntry(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown; module?: unknown; main?: unknown };
  let exp = pkg.exports;
  if (typeof exp === 'object' && exp !== null && '.' in exp) exp = (exp as Record<string, unknown>)['.'];
  for (let depth = 0; typeof exp === 'object' && exp !== null && depth < 4; depth++) {
    const conditions = exp as Record<string, unknown>;
    exp = conditions.import ?? conditions.default ?? conditions.node;
  }
  const entry = typeof exp === 'string' ? exp : typeof pkg.module === 'string' ? pkg.module : typeof pkg.main === 'string' ? pkg.main : 'index.js';
  return join(dir, entry);
}

/**
 * What `cloudflare:workers` is in the Node.js edition: the Worker's env
 * (its vars, as the Workers side gives them), a waitUntil that lets the
 * promise run, and the entrypoint classes a module may extend; the
 * Workers side's is the runtime's own.
 */
export function cloudflareWorkersStandIn(vars: Readonly<Record<string, unknown>>): string {
  return [
    `export const env = ${JSON.stringify(vars)};`,
    'export function waitUntil(promise) { Promise.resolve(promise).catch(() => {}); }',
    'export class WorkerEntrypoint { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }',
    'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }',
    '',
  ].join('\n');
}
