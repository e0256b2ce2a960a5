/**
 * Bare imports in a Deno file, resolved as `deno bench` resolves them from
 * the file's deno.json: its `imports` map (and its workspace root's), and the
 * workspace's own packages by name and `exports` (`@std/testing/mock` in
 * Deno's std is the member named `@std/testing`, export `./mock`). That is
 * what lets a Deno.bench file from a Deno workspace run unchanged. Targets
 * that need Deno's network resolution (`jsr:` outside the workspace, `npm:`,
 * `https:`) are refused with the reason; rtbench bundles offline.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface DenoConfig {
  readonly dir: string;
  readonly file: string;
  readonly name?: string;
  readonly exports?: string | Record<string, string>;
  readonly imports: Record<string, string>;
  readonly workspace: readonly string[];
}

export type DenoResolution = { path: string } | { error: string } | undefined;

const CONFIG_NAMES = ['deno.json', 'deno.jsonc'];

function readConfig(dir: string): DenoConfig | undefined {
  for (const name of CONFIG_NAMES) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`${file}: not read as JSON (${(e as Error).message}); rtbench reads deno.json and comment-free deno.jsonc`);
    }
    const imports = typeof raw.imports === 'object' && raw.imports !== null ? (raw.imports as Record<string, string>) : {};
    const workspace = Array.isArray(raw.workspace) ? (raw.workspace as string[]) : [];
    return {
      dir,
      file,
      ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
      ...(typeof raw.exports === 'string' || (typeof raw.exports === 'object' && raw.exports !== null) ? { exports: raw.exports as DenoConfig['exports'] } : {}),
      imports,
      workspace,
    };
  }
  return undefined;
}

/** An import map lookup: the exact key, else the longest key ending in "/" that prefixes the specifier. */
export function mapImport(imports: Record<string, string>, specifier: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(imports, specifier)) return imports[specifier];
  let best: string | undefined;
  for (const key of Object.keys(imports)) if (key.endsWith('/') && specifier.startsWith(key) && (!best || key.length > best.length)) best = key;
  return best === undefined ? undefined : imports[best] + specifier.slice(best.length);
}

/** `@scope/name/sub` → ['@scope/name', './sub']; `@scope/name` → [.., '.']. */
export function splitPackage(specifier: string): [string, string] | undefined {
  const match = /^(@[^/@]+\/[^/@]+|[^@/][^/@]*)(?:@[^/]*)?(\/.*)?$/.exec(specifier);
  return match ? [match[1]!, match[2] ? `.${match[2]}` : '.'] : undefined;
}

/** Caches the configs read per directory for one bundle. */
export class DenoResolver {
  readonly #configs = new Map<string, DenoConfig | undefined>();

  #config(dir: string): DenoConfig | undefined {
    if (!this.#configs.has(dir)) this.#configs.set(dir, readConfig(dir));
    return this.#configs.get(dir);
  }

  /** The nearest config at or above `dir`. */
  #nearest(dir: string): DenoConfig | undefined {
    for (let d = dir; ; d = dirname(d)) {
      const config = this.#config(d);
      if (config) return config;
      if (dirname(d) === d) return undefined;
    }
  }

  /** The workspace root that lists `member` (the member itself when it declares a workspace). */
  #root(member: DenoConfig): DenoConfig {
    if (member.workspace.length) return member;
    for (let d = dirname(member.dir); dirname(d) !== d; d = dirname(d)) {
      const config = this.#config(d);
      if (config?.workspace.some((w) => resolve(d, w) === member.dir)) return config;
    }
    return member;
  }

  /** A workspace member's export, by package name; undefined when no member has that name. */
  #member(root: DenoConfig, name: string, subpath: string): DenoResolution {
    for (const entry of root.workspace) {
      const member = this.#config(resolve(root.dir, entry));
      if (member?.name !== name) continue;
      const exports = typeof member.exports === 'string' ? { '.': member.exports } : (member.exports ?? {});
      const target = exports[subpath];
      if (target === undefined) return { error: `${name} (the workspace member ${member.dir}) exports no "${subpath}" in ${member.file}` };
      return { path: resolve(member.dir, target) };
    }
    return undefined;
  }

  /** Where `specifier`, imported from a file in `importerDir`, resolves under Deno's rules; undefined: not Deno's to say. */
  resolve(specifier: string, importerDir: string): DenoResolution {
    if (specifier.startsWith('.') || isAbsolute(specifier) || specifier.startsWith('node:')) return undefined;
    const nearest = this.#nearest(importerDir);
    if (!nearest) return undefined;
    const root = this.#root(nearest);
    const own = mapImport(nearest.imports, specifier);
    const mapped = own ?? (root === nearest ? undefined : mapImport(root.imports, specifier));
    const config = own !== undefined ? nearest : root;
    const target = mapped ?? specifier;
    if (target.startsWith('./') || target.startsWith('../') || target.startsWith('/')) return { path: resolve(config.dir, target) };
    if (target.startsWith('file:')) return { path: fileURLToPath(target) };
    const bare = target.startsWith('jsr:') ? target.slice(4).replace(/^\//, '') : target;
    const pkg = /^(npm|https?):/.test(bare) ? undefined : splitPackage(bare);
    const fromWorkspace = pkg ? this.#member(root, pkg[0], pkg[1]) : undefined;
    if (fromWorkspace) return fromWorkspace;
    if (mapped !== undefined && /^(jsr|npm|https?):/.test(target)) {
      return { error: `"${specifier}" maps to ${target} in ${config.file}, which deno fetches from the network; rtbench bundles offline (map it to a local path)` };
    }
    return undefined;
  }
}
