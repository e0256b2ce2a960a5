/**
 * The CLI's launcher (bin/rtbench.mjs): a start runs the CLI from a bundle
 * kept per sources' key (bin/cli-key.mjs, @rtbench/host's cli-bundle.ts), and a
 * module the user wrote, loaded into that process, gets the bundle's copy of
 * each `@rtbench/…` package, so there is one of each module's state.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliArgv, fixture, repoRoot, runCli, tempFile } from '../../../test/helpers/cli.ts';
import { sourcesKey } from '../bin/cli-key.mjs';

/** The text of a bundle's file and of every chunk it imports statically, as Node loads them before the first dynamic import(). */
function staticallyLoaded(file: string, seen = new Map<string, string>()): string[] {
  if (seen.has(file)) return [...seen.values()];
  const text = readFileSync(file, 'utf8');
  seen.set(file, text);
  for (const m of text.matchAll(/^(?:import|export)\b[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)) staticallyLoaded(join(dirname(file), (m[1] ?? m[2])!), seen);
  return [...seen.values()];
}

const bundleOf = (k: string): string => join(repoRoot, 'packages/cli/node_modules/.cache/rtbench', `cli-${k}`);

describe('the sources key', () => {
  it('changes with a source file, its place or the lockfile, and not with a file time', () => {
    const root = join(tempFile('tree'), 'repo');
    mkdirSync(join(root, 'packages/a/src/deep'), { recursive: true });
    writeFileSync(join(root, 'packages/a/package.json'), '{"name":"a"}');
    writeFileSync(join(root, 'packages/a/src/deep/x.ts'), 'export const x = 1;');
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9');
    const first = sourcesKey(root);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    utimesSync(join(root, 'packages/a/src/deep/x.ts'), new Date(0), new Date(0));
    expect(sourcesKey(root)).toBe(first);
    writeFileSync(join(root, 'packages/a/src/deep/x.ts'), 'export const x = 2;');
    const edited = sourcesKey(root);
    expect(edited).not.toBe(first);
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.1');
    expect(sourcesKey(root)).not.toBe(edited);
    const moved = join(tempFile('tree'), 'elsewhere');
    cpSync(root, moved, { recursive: true });
    expect(sourcesKey(moved)).not.toBe(sourcesKey(root));
  });

  it('is taken from its memo while the files keep their sizes, times and inodes, and read again when one changes', () => {
    const root = join(tempFile('tree'), 'repo');
    mkdirSync(join(root, 'packages/a/src'), { recursive: true });
    const source = join(root, 'packages/a/src/x.ts');
    writeFileSync(source, 'export const x = 1;');
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9');
    // Files older than a timestamp step: settled, so their key is kept.
    const old = new Date(Date.now() - 60_000);
    for (const f of [source, join(root, 'pnpm-lock.yaml')]) utimesSync(f, old, old);
    const key = sourcesKey(root);
    const memo = join(root, 'packages/cli/node_modules/.cache/rtbench/sources-stamp.json');
    const kept = JSON.parse(readFileSync(memo, 'utf8')) as { stamp: string; key: string };
    expect(kept.key).toBe(key);
    // A planted key under the same stamp is what the next start takes: the files were not read.
    writeFileSync(memo, JSON.stringify({ ...kept, key: 'planted' }));
    expect(sourcesKey(root)).toBe('planted');
    // An edit changes the stamp: the contents are read again, and a file changed within a step is never taken on trust.
    writeFileSync(source, 'export const x = 2;');
    expect(sourcesKey(root)).not.toBe(key);
    expect(sourcesKey(root)).not.toBe('planted');
  });
});

describe('a start', () => {
  it('runs the CLI from the bundle of these sources, with every package export as an entry', () => {
    const r = runCli(['--version']);
    expect(r.status).toBe(0);
    const dir = bundleOf(sourcesKey());
    const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8')) as { cli: string; packages: Record<string, string> };
    expect(existsSync(join(dir, entries.cli))).toBe(true);
    expect(Object.keys(entries.packages)).toEqual(expect.arrayContaining(['@rtbench/core', '@rtbench/core/schema', '@rtbench/process', '@rtbench/runtime-kit', 'rtbench']));
    // The programs inside the runtimes are bundled per suite, never imported by the host.
    expect(Object.keys(entries.packages).filter((s) => s.endsWith('/entry'))).toEqual([]);
    for (const file of Object.values(entries.packages)) expect(existsSync(join(dir, file))).toBe(true);
    // What a start loads before its command (the entry and the chunks it imports): no command's module, no schema library.
    const started = staticallyLoaded(join(dir, entries.cli));
    expect(started.filter((text) => /^\/\/ packages\/cli\/src\/commands\//m.test(text))).toEqual([]);
    expect(started.filter((text) => /^\/\/ node_modules\/.*\/zod\//m.test(text))).toEqual([]);
    // esbuild (CommonJS) is required, never imported: an import parses its whole main file for its names first.
    const chunks = readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.mjs'));
    expect(chunks.filter((f) => /^(?:import|export)\b[^;]*?from\s*"esbuild"|\bimport\(\s*"esbuild"\s*\)/m.test(readFileSync(join(dir, 'chunks', f), 'utf8')))).toEqual([]);
    expect(chunks.some((f) => readFileSync(join(dir, 'chunks', f), 'utf8').includes('__require("esbuild")'))).toBe(true);
  });

  it('keeps compiled code beside the bundle for the next start where Node has a compile cache (22.1 and later)', () => {
    // node@24 as rtbench's checkout pins it for runs (runners/node's devDependencies).
    const node24 = join(repoRoot, 'runners/node/node_modules/node-24/bin/node');
    const r = spawnSync(node24, cliArgv(['--version']), { cwd: repoRoot, encoding: 'utf8' });
    expect(r.stdout).toContain('node-v24.');
    expect(readdirSync(join(bundleOf(sourcesKey()), 'compile-cache')).some((d) => d.startsWith('v24.'))).toBe(true);
  });

  // The run's set-up built the bundle before any test (test/helpers/fixture-pool.ts), and the first test started it: the others read it.
  it('gives a user module the bundle\'s own @rtbench packages: state set through the bundle is what the module sees', () => {
    const dir = bundleOf(sourcesKey());
    const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8')) as { packages: Record<string, string> };
    const urls = Object.fromEntries(Object.entries(entries.packages).map(([s, f]) => [s, pathToFileURL(join(dir, f)).href]));
    const script = [
      `import { provideUserModuleLoader } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/cli/bin/user-modules.mjs')).href)};`,
      `provideUserModuleLoader(${JSON.stringify(urls)}, ${JSON.stringify(dir)});`,
      // The bound is set through one entry of the bundle (the subpath the CLI sets it through) and read by the user's
      // module through another (the package's face): one module state between them.
      `const bound = await import(${JSON.stringify(urls['@rtbench/process/memory-bound'])});`,
      `const bundled = await import(${JSON.stringify(urls['@rtbench/process'])});`,
      'bound.setMemoryBound(123_456_789);',
      `const user = await bundled.importUserModule(${JSON.stringify(join(repoRoot, 'test/fixtures/shares-state/user-module.ts'))});`,
      'process.stdout.write(String(user.boundSeenByUser()));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('123456789');
  });

  it('names the sources in stack traces (the bundle has source maps, read when a stack is formatted)', () => {
    const dir = bundleOf(sourcesKey());
    const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8')) as { packages: Record<string, string> };
    const script = [
      `import { mapStacksUnder } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/cli/bin/stack-sources.mjs')).href)};`,
      `mapStacksUnder(${JSON.stringify(dir)});`,
      `const schema = await import(${JSON.stringify(pathToFileURL(join(dir, entries.packages['@rtbench/core/schema']!)).href)});`,
      "try { schema.parseRun({}, 'x.json'); } catch (error) { process.stdout.write(error.stack); }",
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.stdout).toContain(`(${join(repoRoot, 'packages/core/src/schema.ts')}:`);
  });

  it('from the sources (RTBENCH_FROM_SOURCE=1, or an install whose bundle cannot be used) loads a CommonJS plug-in as the bundle does', () => {
    const plugin = join(repoRoot, 'test/fixtures/faulty-plugins/no-module/plugin.ts');
    for (const fromSource of ['1', '0']) {
      const r = runCli(['bench', fixture('tiny'), '--runtime', 'copied'], { RTBENCH_FROM_SOURCE: fromSource, RTBENCH_RUNTIME_PLUGINS: plugin });
      expect(r.stderr.trim()).toBe('error: copied: no copied runtime is installed here');
      expect(r.status).toBe(2);
    }
  });

  it('loads a suite the user wrote, and runs it', () => {
    const r = runCli(['bench', fixture('tiny'), '--runtime', 'node', '--rounds', '1', '--max-rounds', '1', '--time', '5ms', '--warmup', '10ms', '--fixed-warmup', '--format', 'json', '--quiet', '--save', tempFile('run.json')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { run: { results: unknown[] } }).run.results.length).toBeGreaterThan(0);
  });
});
