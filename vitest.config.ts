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
    // vitest's default, one worker per core minus one, is a single worker on a 2-core machine.
    // Files spend much of their time waiting on child processes, Postgres, Chromium and timers,
    // so one worker more than cores fills that time under load (2 cores beside a CPU hog:
    // 574–634 s over three runs, against 609–687 s with two; quiet, 494–522 s against 469–502 s)
    maxWorkers: availableParallelism() + 1,
  },
});
