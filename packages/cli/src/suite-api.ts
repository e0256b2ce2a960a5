/**
 * What `import … from 'rtbench'` gives a suite written in another repository:
 * rtbench's suite API (suite, group, bench, …), the same module the harness
 * runs it with. The CLI itself is the package's `bin`.
 */
export * from '@rtbench/core';
