// Every `loopchart` subcommand: each module exports `register(program)`; main.ts registers them all.
export { register as registerBenchmark } from './benchmark.js';
export { register as registerCertify } from './certify.js';
export { register as registerDemo } from './demo.js';
export { register as registerDiagram } from './diagram.js';
export { register as registerHealth } from './health.js';
export { register as registerMcp } from './mcp.js';
export { register as registerRuns } from './runs.js';
export { register as registerRunsOperate } from './runsOperate.js';
export { register as registerServe } from './serve.js';
export { register as registerView } from './view.js';
export { register as registerWhatIf } from './whatIf.js';
