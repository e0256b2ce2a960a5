/**
 * dependency-cruiser: the import rules rtbench's layout rests on
 * (`pnpm lint:arch`, run by `pnpm test`). Type-only imports count: a circle
 * of types is still a circle a reader has to untangle. What runtimes load is
 * checked separately, without type-only imports, by
 * .dependency-cruiser.in-runtime.cjs.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles: every module can be read after the ones it imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-the-registry-imports-plug-ins',
      severity: 'error',
      comment:
        'A runtime is one plug-in (runners/<name>), listed in one registry (packages/runtime-registry): no other package, script or suite imports a plug-in, so adding a runtime touches nothing else. Tests may reach into one runtime\'s files to check what it does (what a workerd job leaves behind).',
      from: { path: '^(packages/(?!runtime-registry/)[^/]+/src/|scripts/|bench/)' },
      to: { path: '^runners/' },
    },
    {
      name: 'plug-ins-stand-alone',
      severity: 'error',
      comment: 'A runtime folder does not import another runtime\'s folder.',
      from: { path: '^runners/([^/]+)/' },
      to: { path: '^runners/', pathNot: '^runners/$1/' },
    },
    {
      name: 'reporters-sit-on-top',
      severity: 'error',
      comment: 'In report, the reporters render views with shared cells: views, cells and the HTML page never import a reporter (reporters import down). Only reporters/ names formats.',
      from: { path: '^packages/report/src/(?!reporters/|index\\.ts$)' },
      to: { path: '^packages/report/src/reporters/' },
    },
    {
      name: 'core-is-runtime-neutral',
      severity: 'error',
      comment: 'core runs inside every runtime (workerd included) and under the host: no Node.js built-in module.',
      from: { path: '^packages/core/src/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^test/fixtures/brought/deno-workspace/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
