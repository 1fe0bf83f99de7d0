import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^loopchart$/, replacement: `${src}entries/index.ts` },
      { find: /^loopchart\/(.+)$/, replacement: `${src}entries/$1.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/suiteBuild.ts'],
    typecheck: { enabled: false },
    testTimeout: 30_000,
    // vitest's default, one worker per core minus one, is a single worker on a 2-core machine:
    // idle while a file waits on its child processes, Postgres or Chromium
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
