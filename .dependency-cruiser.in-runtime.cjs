/**
 * dependency-cruiser: what a runtime loads imports nothing host-only. Cruised
 * from each runtime's entry (runners/<name>/src/entry.ts) and from the
 * adapters brought files are bundled with, following what esbuild bundles:
 * type-only imports are left out (tsPreCompilationDeps: false), as esbuild
 * erases them. Run by `pnpm lint:arch`.
 */
const HOST_PACKAGES = '^packages/(runtime-kit|host|runtime-registry|run|cli|report|profile|host-timed|bisect|stats)/';
const HOST_BUILTINS = '^(node:)?(child_process|cluster|worker_threads|net|dgram|http|https|http2|tls|inspector|repl)$';

module.exports = {
  forbidden: [
    {
      name: 'in-runtime-code-is-not-host-code',
      severity: 'error',
      comment:
        'A runtime entry, and everything it bundles, imports none of the host\'s packages, zod, esbuild, or the built-ins that start processes or open connections: that code would be measured, or would not load in workerd.',
      from: { path: ['^runners/[^/]+/src/entry\\.ts$', '^packages/adapters/src/'] },
      to: { reachable: true, path: [HOST_PACKAGES, '(^|/)node_modules/(\\.pnpm/)?(zod|esbuild)(@|/)', HOST_BUILTINS] },
    },
    {
      name: 'shared-in-runtime-code-uses-no-built-ins',
      severity: 'error',
      comment: 'Shared in-runtime code (core, adapters) runs on every runtime: no Node.js built-in module; only a runtime\'s own files may use that runtime\'s (its stdio, its heap statistics).',
      from: { path: '^packages/(core|adapters)/src/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
