/**
 * vitest's bench API with its `expect`, for a file that imports `expect`
 * from 'vitest': the matchers (@vitest/expect and chai) are bundled only
 * into the files that assert (suite-loader's bundle.ts picks this module or
 * vitest-bench.ts by the importing file's text).
 */
export * from './vitest-bench.ts';
export { expect } from './vitest-expect.ts';
