// next-page's own test job: its smoke builds the Next.js app on first use, so it is not in `pnpm test` (README).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/next-page/smoke/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 600_000,
    env: { NO_COLOR: '1' },
  },
});
