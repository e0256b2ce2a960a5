/**
 * A framework is one file plus one entry: one rtbench does not ship
 * (fixtures/fake-framework/framework.ts), added to the list of frameworks,
 * is recognised in an app's folder, planned, built by the app's own build
 * command when the run first needs it, and served by its Node.js side.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import type { RequestSuite } from '@rtbench/core';
import { FRAMEWORKS, loadFramework, type ListedFramework } from '../src/apps/all.ts';
import { locateApp } from '../src/apps/app-suite.ts';
import { configFiles, describeApp, frameworkAppAt } from '../src/apps/framework-app.ts';

/** The fake framework's entry, as all.ts lists each framework: how its app is told apart, and its home. */
const FAKEWORK: ListedFramework = {
  name: 'Fakework',
  package: 'fakework',
  configs: configFiles('fakework.config'),
  builtWith: 'fakework build',
  node: { server: "fakework's handler", adapters: [] },
  workers: { worker: 'no Worker', adapters: [] },
  home: () => import('./fixtures/fake-framework/framework.ts'),
};

/** An app of the fake framework, installed, whose build command writes a handler that answers with the path it was asked. */
function fakeworkApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-fakework-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fakework-app', dependencies: { fakework: '^1.0.0' } }));
  mkdirSync(join(dir, 'node_modules', 'fakework'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'fakework', 'package.json'), JSON.stringify({ name: 'fakework', version: '1.0.0' }));
  writeFileSync(join(dir, 'fakework.config.js'), 'export default {};\n');
  const handler = 'export function handler(req, res) { res.end(`<p>fakework ${req.url}</p>`); }\n';
  writeFileSync(join(dir, 'build.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync('handler.mjs', ${JSON.stringify(handler)});\n`);
  return dir;
}

/** The page a served program answers at `path`: the program started on node, its port read from its first line, ended after. */
async function pageOf(program: string, path: string): Promise<string> {
  const child = spawn(process.execPath, [program], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve) => lines.once('line', resolve));
    const port = /^listening (\d+)$/.exec(first)?.[1];
    if (!port) throw new Error(`the server's first line: ${first}`);
    return await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
  } finally {
    const exited = once(child, 'exit');
    child.kill();
    await exited;
  }
}

it('a framework of one file, listed, is recognised, built by its own command and served', async () => {
  const dir = fakeworkApp();
  expect(frameworkAppAt(dir, FRAMEWORKS)).toBeUndefined();
  const app = frameworkAppAt(dir, [...FRAMEWORKS, FAKEWORK])!;
  expect(app.framework).toBe(FAKEWORK);
  expect(describeApp(app)).toMatch(/^a Fakework app \(fakework 1\.0\.0, fakework\.config\.js\): built with fakework build, served by fakework's handler on the runtimes with a Node\.js server/);
  // Listed but not among the frameworks rtbench builds here, it is refused; with its home loaded, it is built.
  expect(() => locateApp(dir, app, { request: ['/hello'] })).toThrow(/is a Fakework app .*; rtbench builds Next\.js, SvelteKit, React Router \(framework mode\) and Astro apps, not Fakework apps yet/);
  const suite = ((await import(locateApp(dir, app, { request: ['/hello'] }, [(await loadFramework(FAKEWORK))!]).entry)) as { default: RequestSuite }).default;
  const [declaration] = suite.declarations;
  await declaration!.prepare!({});
  const served = declaration!.server!({});
  if (!served || !('program' in served)) throw new Error(`not served: ${JSON.stringify(served)}`);
  expect(await pageOf(served.program, '/hello')).toBe('<p>fakework /hello</p>');
  // The Worker the plan refused is said by the Workers runtime, not built.
  expect(declaration!.handlerUnsupported?.()).toBe('fakework builds no Worker');
});
