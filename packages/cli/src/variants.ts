/**
 * Variants: a runtime plus everything that changes its speed. One syntax
 * everywhere (--runtime, --compare, results):
 *
 *   <runtime> [--engine-flag[=value] ...] [ENV_NAME=value ...]
 *
 * e.g. "node@26 --max-semi-space-size=64", "deno --jitless",
 * "bun --useConcurrentJIT=false", "node=/src/node/out/Release/node NODE_ENV=production".
 * Engine flags are written the same for every runtime and translated by its runner.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { FlagError, RuntimeUnavailableError, type Runner, type RuntimeTarget, type TranslatedFlags } from '@rtbench/runner-kit';
import type { Variant } from '@rtbench/core/schema';
import { UsageError } from './errors.ts';
import { RUNNERS, runnerFor } from './runners.ts';

export const VARIANT_SYNTAX = '<runtime> [--engine-flag[=value] ...] [ENV=value ...]   e.g. "node@26 --max-semi-space-size=64"';

export interface VariantSpec {
  id: string;
  runtimeSpec: string;
  flags: string[];
  env: Record<string, string>;
}

export function parseVariant(text: string): VariantSpec {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const [runtimeSpec, ...rest] = tokens;
  if (!runtimeSpec || runtimeSpec.startsWith('-')) throw new UsageError(`cannot parse variant "${text}": it must start with a runtime. Syntax: ${VARIANT_SYNTAX}`);
  const flags: string[] = [];
  const env: Record<string, string> = {};
  for (const token of rest) {
    if (/^--?[A-Za-z0-9_-]+(=.*)?$/.test(token)) flags.push(token);
    else if (/^[A-Z_][A-Z0-9_]*=/.test(token)) {
      const eq = token.indexOf('=');
      env[token.slice(0, eq)] = token.slice(eq + 1);
    } else throw new UsageError(`cannot parse "${token}" in variant "${text}". Syntax: ${VARIANT_SYNTAX}`);
  }
  if (!runnerFor(runtimeSpec)) throw new UsageError(unknownRuntimeMessage(runtimeSpec));
  return { id: tokens.join(' '), runtimeSpec, flags, env };
}

/** --runtime "a,b,c": commas separate variants. */
export function parseRuntimeList(list: string): VariantSpec[] {
  const specs = list.split(',').map((s) => s.trim()).filter(Boolean).map(parseVariant);
  const ids = new Set<string>();
  for (const s of specs) {
    if (ids.has(s.id)) throw new UsageError(`variant "${s.id}" is listed twice`);
    ids.add(s.id);
  }
  return specs;
}

export function unknownRuntimeMessage(spec: string): string {
  const known = RUNNERS.flatMap((r) => [r.runtime, ...r.knownSpecs().map((k) => k.spec)]);
  return `unknown runtime "${spec}". Known: ${[...new Set(known)].join(', ')}`;
}

export interface ResolvedVariant {
  spec: VariantSpec;
  runner: Runner;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  record: Variant;
}

/** Why a variant cannot run (kept in the results, the run goes on without it). */
export interface UnavailableVariant {
  spec: VariantSpec;
  runner: Runner;
  reason: string;
  kind: 'runtime-unavailable' | 'flags';
}

const hashCache = new Map<string, Promise<string>>();

/** sha256 of a binary, so two runs can prove they used the same build. */
export function sha256File(path: string): Promise<string> {
  const { size, mtimeMs } = statSync(path);
  const key = `${path}:${size}:${mtimeMs}`;
  let cached = hashCache.get(key);
  if (!cached) {
    cached = new Promise((resolve, reject) => {
      const hash = createHash('sha256');
      createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('error', reject)
        .on('end', () => resolve(hash.digest('hex')));
    });
    hashCache.set(key, cached);
  }
  return cached;
}

export async function resolveVariant(spec: VariantSpec): Promise<ResolvedVariant | UnavailableVariant> {
  const runner = runnerFor(spec.runtimeSpec)!;
  let target: RuntimeTarget;
  try {
    target = await runner.resolve(spec.runtimeSpec);
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) return { spec, runner, reason: error.message, kind: 'runtime-unavailable' };
    throw error;
  }
  let flags: TranslatedFlags;
  try {
    flags = runner.translateFlags(spec.flags);
    flags = { args: flags.args, env: { ...flags.env, ...spec.env } };
    if (spec.flags.length) await runner.checkFlags(target, flags);
  } catch (error) {
    if (error instanceof FlagError) return { spec, runner, reason: error.message, kind: 'flags' };
    throw error;
  }
  const record: Variant = {
    id: spec.id,
    runtime: runner.runtime,
    spec: spec.runtimeSpec,
    flags: spec.flags,
    translatedFlags: flags,
    binary: target.binary,
    binarySha256: await sha256File(target.binary),
    source: target.source,
    version: target.version,
    engine: target.engine,
    engineVersion: target.engineVersion,
  };
  return { spec, runner, target, flags, record };
}

export function isResolved(v: ResolvedVariant | UnavailableVariant): v is ResolvedVariant {
  return 'target' in v;
}
