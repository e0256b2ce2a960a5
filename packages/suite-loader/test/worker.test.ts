/**
 * A brought Worker read on the host, before anything runs: a wrangler
 * project's settings as wrangler reads them, every refusal one line (a
 * binding rtbench cannot stand in for, a config that does not parse, a main
 * that is missing, a request that does not parse), and the request suite
 * the Worker becomes.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawRequests } from '@rtbench/core/request';
import { type RequestSuite } from '@rtbench/core';
import { importUserModule } from '@rtbench/process';
import { isWorkerTarget, locateSuite } from '../src/index.ts';
import { readWranglerProject, wranglerConfigAt } from '../src/wrangler-config.ts';
import { parseRequestLine, readRequestsFile } from '../src/worker-requests.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'workers');
const at = (...parts: string[]): string => join(FIXTURES, ...parts);
const temp = (name: string, text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'rtbench-worker-')), name);
  writeFileSync(file, text);
  return file;
};

describe('a wrangler project', () => {
  it('is read as wrangler reads it: main, compatibility date and flags, vars, define, a build not run', () => {
    const config = wranglerConfigAt(at('wrangler-react'))!;
    expect(config).toBe(at('wrangler-react', 'wrangler.toml'));
    expect(readWranglerProject(config)).toEqual({
      configFile: config,
      name: 'react-page',
      main: at('wrangler-react', 'src', 'index.js'),
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
      vars: { GREETING: 'hello from vars' },
      define: { __ROWS__: '200' },
      build: 'npm run build',
      assets: { directory: at('wrangler-react', 'public'), routing: { htmlHandling: 'auto-trailing-slash', notFoundHandling: 'none', runWorkerFirst: false, navigationPrefersAssets: true } },
      notes: [],
    });
  });

  it('reads the legacy node_compat as the nodejs_compat flag, and says so', () => {
    const project = readWranglerProject(wranglerConfigAt(at('legacy-node-compat'))!);
    expect(project.compatibilityFlags).toEqual(['nodejs_compat']);
    expect(project.notes).toEqual(["wrangler.toml's legacy node_compat = true is read as the nodejs_compat flag: Node's builtins come from the Workers runtime, not from bundled polyfills"]);
    expect(readWranglerProject(temp('wrangler.toml', 'main = "wrangler.toml"\nnode_compat = true\ncompatibility_flags = ["nodejs_compat_v2"]\n')).compatibilityFlags).toEqual(['nodejs_compat_v2']);
  });

  it("names wrangler's bundling settings it does not apply, and accepts deployment settings silently", () => {
    const project = readWranglerProject(temp('wrangler.jsonc', '{ "main": "wrangler.jsonc", "minify": true, "alias": { "a": "b" }, "routes": ["x.example/*"], "observability": { "enabled": true } }'));
    expect(project.notes).toEqual(["wrangler.jsonc's minify, alias are settings of wrangler's bundling, not applied: rtbench bundles main with esbuild's defaults"]);
  });

  it.each([
    [at('wrangler-kv'), /^wrangler\.jsonc declares a KV namespace binding \(kv_namespaces: CACHE\): rtbench cannot stand in for it/],
    [at('bad-toml'), /^wrangler\.toml is not valid TOML: line 2, column \d+: /],
    [at('no-main'), /^wrangler\.json: main src\/missing\.js: no such file$/],
    [temp('wrangler.jsonc', '{ "main": "x.js", // a comment\n "vars": { "A": 1 }, }'), /^wrangler\.jsonc: main x\.js: no such file$/],
    [temp('wrangler.jsonc', '{ "main": "x.js" "name": 1 }'), /^wrangler\.jsonc is not valid JSON with comments: line 1, column \d+: CommaExpected$/],
    [temp('wrangler.toml', 'name = "x"\n'), /^wrangler\.toml names no main/],
    [temp('wrangler.toml', 'main = "w.js"\n[[d1_databases]]\nbinding = "DB"\n'), /^wrangler\.toml declares a D1 database binding \(d1_databases: DB\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[[durable_objects.bindings]]\nname = "ROOM"\nclass_name = "Room"\n'), /^wrangler\.toml declares a Durable Object binding \(durable_objects: ROOM\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[ai]\nbinding = "AI"\n'), /^wrangler\.toml declares Workers AI binding \(ai: AI\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[[ratelimits]]\nname = "LIMIT"\nnamespace_id = "1"\n'), /^wrangler\.toml declares a rate limiter binding \(ratelimits: LIMIT\)/],
    [temp('wrangler.jsonc', '{ "main": "w.js", "worker_loaders": [{ "binding": "LOADER" }] }'), /^wrangler\.jsonc declares a Worker loader binding \(worker_loaders: LOADER\)/],
    [temp('wrangler.jsonc', '{ "main": "w.js", "tail_consumers": [{ "service": "t" }] }'), /^wrangler\.jsonc declares a tail consumer binding \(tail_consumers\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[wasm_modules]\nLIB = "lib.wasm"\n'), /^wrangler\.toml declares a Wasm module binding \(wasm_modules: LIB\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[text_blobs]\nTEXT = "a.txt"\n'), /^wrangler\.toml declares a text blob binding \(text_blobs: TEXT\)/],
    [temp('wrangler.jsonc', '{ "main": "w.js", "vpc_servics": [{ "binding": "V" }] }'), /^wrangler\.jsonc declares vpc_servics, which is not a wrangler setting rtbench knows/],
    [temp('wrangler.jsonc', `{ "main": ${'['.repeat(200_000)}${']'.repeat(200_000)} }`), /^wrangler\.jsonc nests its values more than 64 deep: not a wrangler config rtbench reads$/],
    [temp('wrangler.toml', `main = ${'['.repeat(5_000)}${']'.repeat(5_000)}\n`), /^wrangler\.toml nests its values more than 64 deep/],
    [temp('wrangler.jsonc', '{ "main": "wrangler.jsonc", "compatibility_date": "2025-02-30" }'), /^wrangler\.jsonc: compatibility_date "2025-02-30" is not a date of the calendar/],
    [temp('wrangler.jsonc', '{ "main": "wrangler.jsonc", "define": { "__A__": "{ \\"open\\": " } }'), /^wrangler\.jsonc: define __A__: Invalid define value \(must be an entity name or JS literal\): \{ "open": $/],
  ])('%s is refused in one line', (path, message) => {
    expect(() => readWranglerProject(wranglerConfigAt(path)!)).toThrow(message);
    try {
      readWranglerProject(wranglerConfigAt(path)!);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('requests', () => {
  it('a request line: method, path, headers and a body from a file', () => {
    const body = temp('body.json', '{"a":1}');
    expect(parseRequestLine('GET /')).toEqual({ path: '/' });
    expect(parseRequestLine('/bench?x=1')).toEqual({ path: '/bench?x=1' });
    expect(parseRequestLine(`post /api content-type:application/json @${body}`)).toEqual({ method: 'POST', path: '/api', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"a":1}') });
  });

  it.each([
    ['GET', /^--request "GET": expected "\[METHOD\] \/path/],
    ['PATCH /x', /^--request "PATCH \/x": method PATCH is not one rtbench sends/],
    ['GET /x oops', /^--request "GET \/x oops": "oops" is neither a header/],
    ['GET /x @/no/such/file', /^--request "GET \/x @\/no\/such\/file": the body file \/no\/such\/file cannot be read \(ENOENT\)$/],
    ['POST / @/dev/zero', /^--request "POST \/ @\/dev\/zero": the body file \/dev\/zero is not a regular file$/],
    ['GET / x-a:one\rtwo', /: header x-a's value "one\\rtwo" holds a control character/],
    ['GET / x-a:\u0000', /: header x-a's value "\\u0000" holds a control character/],
    ['GET / x(a):1', /: header name "x\(a\)" is not a token/],
    ['GET /a\nb', /: the path "\/a\\nb" holds a control character/],
  ])('%j is refused in one line', (line, message) => {
    expect(() => parseRequestLine(line)).toThrow(message);
  });

  it('a --requests file is a mix with weights; a wrong shape is named by its path', () => {
    const file = temp('mix.json', JSON.stringify({ mix: [{ weight: 3, request: 'GET /a' }, { name: 'post', request: { method: 'POST', path: '/b', body: 'x' } }], requests: 8 }));
    expect(readRequestsFile(file)).toEqual({
      name: 'mix (mix.json)',
      mix: [
        { name: 'GET /a', weight: 3, request: { path: '/a' } },
        { name: 'post', weight: 1, request: { method: 'POST', path: '/b', body: 'x' } },
      ],
      requests: 8,
    });
    expect(() => readRequestsFile(temp('bad.json', JSON.stringify([{ weight: -1, request: 'GET /' }])))).toThrow(/^--requests .*bad\.json: at 0\.weight: /);
    expect(() => readRequestsFile(temp('bad.json', '{'))).toThrow(/^--requests .*bad\.json: is not JSON/);
  });

  it('bounds a --requests file: its count, its weights, its headers, its size and its kind', () => {
    expect(() => readRequestsFile(temp('many.json', JSON.stringify({ mix: [{ request: 'GET /' }], requests: 1e8 })))).toThrow(/^--requests .*many\.json: at requests: .*10000/);
    expect(readRequestsFile(temp('most.json', JSON.stringify({ mix: [{ request: 'GET /' }], requests: 10_000 }))).requests).toBe(10_000);
    expect(() => readRequestsFile(temp('heavy.json', JSON.stringify([{ weight: 1e308, request: 'GET /' }, { weight: 1e308, request: 'GET /b' }])))).toThrow(/^--requests .*heavy\.json: at 0\.weight: /);
    expect(() => readRequestsFile(temp('ctl.json', JSON.stringify([{ request: { path: '/', headers: { 'x-a': 'a\r\nb' } } }])))).toThrow(/mix\.0\.request: header x-a's value .* holds a control character/);
    expect(() => readRequestsFile('/dev/zero')).toThrow(/^--requests \/dev\/zero is not a regular file$/);
    const large = temp('large.json', '');
    truncateSync(large, 16 * 1024 * 1024 + 1);
    expect(() => readRequestsFile(large)).toThrow(/^--requests .*large\.json is 16777217 bytes, more than the 16777216 rtbench reads$/);
    expect(() => parseRequestLine(`POST / @${large}`)).toThrow(/the body file .*large\.json is 16777217 bytes, more than the 16777216 rtbench reads$/);
  });
});

describe('how a brought Worker\'s answers are compared', () => {
  it('a --requests file declares headers to compare and patterns to normalize, each checked in one line', () => {
    const mix = [{ request: 'GET /' }];
    expect(readRequestsFile(temp('rules.json', JSON.stringify({ mix, compareHeaders: ['X-Cache', 'etag'], normalize: ['started \\d+'] })))).toMatchObject({ compareHeaders: ['x-cache', 'etag'], normalize: ['started \\d+'] });
    expect(readRequestsFile(temp('none.json', JSON.stringify({ mix, compareHeaders: [], normalize: [] })))).toEqual({ name: 'mix (none.json)', mix: [{ name: 'GET /', weight: 1, request: { path: '/' } }] });
    expect(() => readRequestsFile(temp('h.json', JSON.stringify({ mix, compareHeaders: ['date'] })))).toThrow(/^--requests .*h\.json: compareHeaders: the header date is the server's clock, not the handler's answer$/);
    expect(() => readRequestsFile(temp('h.json', JSON.stringify({ mix, compareHeaders: ['Content-Type'] })))).toThrow(/: compareHeaders: the header content-type is always compared \(as a media type\)$/);
    expect(() => readRequestsFile(temp('h.json', JSON.stringify({ mix, compareHeaders: ['x-a', 'X-A'] })))).toThrow(/: compareHeaders: the header x-a is named twice$/);
    expect(() => readRequestsFile(temp('h.json', JSON.stringify({ mix, compareHeaders: ['x a'] })))).toThrow(/: compareHeaders: the header name "x a" is not a token HTTP allows$/);
    expect(() => readRequestsFile(temp('n.json', JSON.stringify({ mix, normalize: ['('] })))).toThrow(/^--requests .*n\.json: the pattern "\(" is not a regular expression: /);
    expect(() => readRequestsFile(temp('n.json', JSON.stringify({ mix, normalize: ['x*'] })))).toThrow(/: the pattern "x\*" matches the empty text: it must match at least one character$/);
  });

  it('--normalize makes the suite\'s normalize: each match one mark, and a line says so', async () => {
    const file = at('clock', 'worker.js');
    const located = locateSuite(file, { worker: { request: ['GET /a'], normalize: ['[0-9a-f-]{36}', 'pid \\d+'] } });
    const suite = (await importUserModule(located.entry) as { default: RequestSuite }).default;
    const normalize = suite.declarations[0]!.normalize!;
    expect(normalize({ request: { path: '/a' }, status: 200, body: 'id 123e4567-e89b-12d3-a456-426614174000 pid 42, id 9f0c1d2e-3b4a-4c5d-8e6f-0a1b2c3d4e5f' })).toBe('id ⟨normalized⟩ ⟨normalized⟩, id ⟨normalized⟩');
    expect(located.notes).toContain("each response's matches of /[0-9a-f-]{36}/, /pid \\d+/ are replaced by one mark before it is compared");
    const plain = (await importUserModule(locateSuite(file, { worker: { request: ['GET /a'] } }).entry) as { default: RequestSuite }).default;
    expect(plain.declarations[0]!.normalize).toBeUndefined();
    const mix = (await importUserModule(locateSuite(file, { worker: { request: [], requests: temp('rules.json', JSON.stringify({ mix: [{ request: 'GET /' }], compareHeaders: ['X-Cache'] })) } }).entry) as { default: RequestSuite }).default;
    expect(mix.declarations[0]).toMatchObject({ compareHeaders: ['x-cache'] });
    expect(mix.declarations[0]!.normalize).toBeUndefined();
    expect(() => locateSuite(file, { worker: { request: [], normalize: ['a|'] } })).toThrow(/^--normalize: the pattern "a\|" matches the empty text/);
  });
});

describe('a Worker becomes a request suite', () => {
  it('a module with a default export is a Worker, its fetch looked for where it loads; a suite of its own is not', () => {
    expect(isWorkerTarget(at('clock', 'worker.js'))).toBe(true);
    expect(isWorkerTarget(at('wrangler-react'))).toBe(true);
    // `export default app`: its fetch is a method of a class in another module.
    expect(isWorkerTarget(at('legacy-node-compat', 'worker.js'))).toBe(true);
    expect(isWorkerTarget(temp('suite.ts', "import { suite } from '@rtbench/core';\nexport default suite('x', () => {});\n"))).toBe(false);
    expect(isWorkerTarget(temp('suite.ts', "import { hostTimedSuite } from '@rtbench/host-timed';\nexport default hostTimedSuite('x', []);\n"))).toBe(false);
  });

  it('a default export whose fetch is on its prototype is served; one with none stops where it loads, in one line', async () => {
    const app = (await importUserModule(locateSuite(at('legacy-node-compat', 'worker.js'), { worker: { request: [] } }).entry) as { default: RequestSuite }).default;
    const handler = (await importUserModule(app.declarations[0]!.handler as string) as { default: { fetch(r: Request): Promise<Response> } }).default;
    expect(await (await handler.fetch(new Request('http://x/'))).text()).toBe('2400 of 2400');
    const none = temp('none.js', 'const app = { get() {} };\nexport default app;\n');
    const suite = (await importUserModule(locateSuite(none, { worker: { request: [] } }).entry) as { default: RequestSuite }).default;
    await expect(importUserModule(suite.declarations[0]!.handler as string)).rejects.toThrow(/^.*none\.js: its default export has no fetch handler: a Worker module is `export default \{ fetch\(request, env, ctx\) \{ … \} \}` \(it is object\)$/);
  });

  it('a class as the default export (a WorkerEntrypoint) is refused in one line before the run', () => {
    const entrypoint = temp('entry.js', "import { WorkerEntrypoint } from 'cloudflare:workers';\nexport default class extends WorkerEntrypoint {\n  fetch() { return new Response('x'); }\n}\n");
    expect(() => locateSuite(entrypoint, { worker: { request: [] } })).toThrow(/entry\.js: its default export is a class \(a WorkerEntrypoint\): rtbench serves a Worker whose default export is an object with fetch/);
  });

  it('each --request is a case; with none, GET / and a line that says so', async () => {
    const file = at('clock', 'worker.js');
    const two = locateSuite(file, { worker: { request: ['GET /a', 'POST /b'] } });
    const suite = (await importUserModule(two.entry) as { default: RequestSuite }).default;
    expect(suite.declarations.map((d) => [d.name, drawRequests(d, 1)[0]!.request])).toEqual([
      ['GET /a', { path: '/a' }],
      ['POST /b', { method: 'POST', path: '/b' }],
    ]);
    expect((two.notes ?? []).some((n) => n.startsWith('no --request'))).toBe(false);
    // No count fixed: each process serves until its CPU per request is steady (within the measurer's bounds).
    expect(suite.declarations.map((d) => d.requests)).toEqual([undefined, undefined]);
    // The requests are a parameter: the located Worker before them leaves none behind.
    const one = locateSuite(file);
    expect(one.notes).toContain('no --request given: each process is sent GET / (--request "GET /path", repeatable, or --requests <file> for a mix)');
    expect(() => locateSuite(file, { worker: { request: ['GET /a', 'GET /a'] } })).toThrow('--request GET /a is given twice: each request is its own case');
  });

  it("a project's claims file is its suite's claims, and its entry is found again as that suite (a claims run plans by it)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-claims-project-'));
    writeFileSync(join(dir, 'worker.js'), 'export default { fetch: () => new Response("ok") };\n');
    writeFileSync(join(dir, 'wrangler.json'), JSON.stringify({ name: 'claimed', main: 'worker.js', compatibility_date: '2025-09-01' }));
    writeFileSync(join(dir, 'rtbench.claims.mjs'), 'export const claims = ["stated beside the project"];\n');
    const located = locateSuite(dir);
    expect(located.notes).toContain(`its claims are rtbench.claims.mjs's (rtbench claims ${dir} checks them)`);
    expect(((await importUserModule(located.entry)) as { claims?: unknown }).claims).toEqual(['stated beside the project']);
    // Its entry imports rtbench's own files by path: located again, it is that suite, not a Worker module to serve.
    expect(locateSuite(located.entry)).toEqual({ name: expect.any(String), entry: located.entry });
  });

  it("a project's define and compatibility reach its declarations, and the notes say what is not run", async () => {
    const located = locateSuite(at('wrangler-react'));
    const suite = (await importUserModule(located.entry) as { default: RequestSuite }).default;
    expect(suite.name).toBe('react-page');
    expect(suite.declarations[0]).toMatchObject({ define: { __ROWS__: '200' }, compatibility: { date: '2025-09-01', flags: ['nodejs_compat'] } });
    expect(located.notes).toContain("wrangler.toml's build command (npm run build) is not run: rtbench bundles main (index.js) as it is");
    // Said only when the Workers runtime runs (the plan says it then).
    expect(located.servedModuleNotes).toEqual(["the Workers runtime serves it with wrangler.toml's compatibility date 2025-09-01 and flags nodejs_compat; the other runtimes have no such setting"]);
  });
});
