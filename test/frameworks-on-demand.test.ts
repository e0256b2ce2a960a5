/**
 * A framework's code loads only when a folder is its app: finding a Worker
 * (suite-loader's worker.ts) or a brought benchmark file (brought-file.ts)
 * statically loads the list of frameworks (apps/all.ts: how each app is told
 * apart) and the detection (apps/framework-app.ts), and no framework's home,
 * build or page (each loaded by its entry's `home`), nor app-suite.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importGraph, type ImportGraph } from './helpers/import-closure.ts';

const APPS = 'packages/suite-loader/src/apps/';
const ENTRIES = ['packages/suite-loader/src/worker.ts', 'packages/suite-loader/src/brought-file.ts'];

/** The app modules a finder may load: the list and the detection. */
const ALLOWED = [`${APPS}all.ts`, `${APPS}framework-app.ts`];

/** The app modules in `entry`'s static import closure that it must not load. */
const frameworkModulesOf = (graph: ImportGraph, entry: string): string[] =>
  [...graph.closureOf(entry).modules].filter((file) => file.startsWith(APPS) && !ALLOWED.includes(file)).sort();

describe("what finding a Worker or a brought file loads of the frameworks' code", () => {
  let graph: ImportGraph;
  beforeAll(async () => {
    graph = await importGraph(ENTRIES);
  });

  it.each(ENTRIES)('%s loads the list of frameworks and no framework module', (entry) => {
    const { modules } = graph.closureOf(entry);
    expect(modules).toContain(`${APPS}all.ts`);
    expect(frameworkModulesOf(graph, entry)).toEqual([]);
  });

  it("each framework's home is a dynamic import of the list, loaded when a folder is its app", () => {
    const homes = graph.dynamicImportsOf(`${APPS}all.ts`);
    expect(homes).toEqual(expect.arrayContaining([`${APPS}next/next.ts`, `${APPS}sveltekit/sveltekit.ts`, `${APPS}react-router/react-router.ts`, `${APPS}astro/astro.ts`]));
  });

  it("fails on a framework's home imported statically, naming it and what it loads", async () => {
    const planted = { file: `${APPS}all.ts`, line: "import next from './next/next.ts'; void next;" };
    const found = await importGraph(ENTRIES, [planted]);
    for (const entry of ENTRIES) expect(frameworkModulesOf(found, entry)).toEqual(expect.arrayContaining([`${APPS}next/next.ts`, `${APPS}next/pages.ts`, `${APPS}framework.ts`]));
  });
});
