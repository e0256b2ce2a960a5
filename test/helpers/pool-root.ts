/**
 * Where the fixture pool (test/helpers/pool.ts) keeps what it made: its own
 * module, importing no package, so the CPU reporter that vitest's config
 * loads can find the shared Chromium there (test/helpers/shared-chromium.ts).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The pool's folder: inside the run's temporary root (RTBENCH_TEST_TMP), or the system's outside a test run. */
export const poolRoot = (): string => join(process.env.RTBENCH_TEST_TMP ?? tmpdir(), 'rtbench-pool');
