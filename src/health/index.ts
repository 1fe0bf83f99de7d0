// loopchart/health: the health of stored loop runs, in aggregate (docs/health.md).
export type { HealthReport, LoopHealth } from './HealthReport.js';
export type { HealthLine } from './healthLines.js';
export { healthLines } from './healthLines.js';
export type { HealthThresholds } from './healthThresholds.js';
export {
  DEFAULT_HEALTH_THRESHOLDS,
  HEALTH_THRESHOLD_NAMES,
  resolveHealthThresholds,
} from './healthThresholds.js';
export type { LoopHealthOptions } from './loopHealth.js';
export { loopHealth } from './loopHealth.js';
export type { RedFlag, RedFlagId } from './redFlags.js';
export { RED_FLAGS, redFlagsOf } from './redFlags.js';
export { scanRuns } from './scanRuns.js';
export type { VerdictClass } from './storedRunFacts.js';
export { VERDICT_CLASSES } from './storedRunFacts.js';
export type { VerdictBucket, VerdictSeries } from './verdictSeries.js';
