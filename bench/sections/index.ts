// Every `npm run bench` section: each module exports `section: BenchSection` (bench/harness/BenchSection.ts);
// register it with one line, e.g. `export { section as paths } from './paths.js';`. bench/main.ts runs them.

export { section as analysis } from './analysis.js';
export { section as checkpoints } from './checkpoints.js';
export { section as dbos } from './dbos.js';
export { section as health } from './health.js';
export { section as loops } from './loops.js';
export { section as pathSamples } from './pathSamples.js';
export { section as paths } from './paths.js';
export { section as serve } from './serve.js';
export { section as whatIf } from './whatIf.js';
