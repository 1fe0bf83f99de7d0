// loopchart/health: the health of stored loop runs, in aggregate (docs/health.md).
export type { HealthReport, LoopHealth } from '../tools/health/HealthReport.js';
export type { HealthLine } from '../tools/health/healthLines.js';
export { healthLines } from '../tools/health/healthLines.js';
export type { HealthThresholds } from '../tools/health/healthThresholds.js';
export {
  DEFAULT_HEALTH_THRESHOLDS,
  HEALTH_THRESHOLD_NAMES,
  resolveHealthThresholds,
} from '../tools/health/healthThresholds.js';
export type { LoopHealthOptions } from '../tools/health/loopHealth.js';
export { loopHealth } from '../tools/health/loopHealth.js';
export type { RedFlag, RedFlagId } from '../tools/health/redFlags.js';
export { RED_FLAGS, redFlagsOf } from '../tools/health/redFlags.js';
export { scanRuns } from '../tools/health/scanRuns.js';
export type { VerdictClass } from '../tools/health/storedRunFacts.js';
export { VERDICT_CLASSES } from '../tools/health/storedRunFacts.js';
export type { VerdictBucket, VerdictSeries } from '../tools/health/verdictSeries.js';
export type { WhatIfChange } from '../tools/whatif/candidateSettings.js';
export { candidateSettings, WHAT_IF_KNOBS } from '../tools/whatif/candidateSettings.js';
export type { FailIf, GateMetric } from '../tools/whatif/failIf.js';
export { GATE_METRICS, parseFailIf, tripped } from '../tools/whatif/failIf.js';
export { parseKnobs, parseSweep } from '../tools/whatif/parseKnobs.js';
export type { Redecision, RunFigures } from '../tools/whatif/Redecision.js';
export type { RecordedRun, UnreadableRun } from '../tools/whatif/recordedRun.js';
export { recordedRun } from '../tools/whatif/recordedRun.js';
export { redecideRun } from '../tools/whatif/redecideRun.js';
export type {
  RunWhatIf,
  StatusMix,
  WhatIfReport,
  WhatIfSummary,
} from '../tools/whatif/WhatIfReport.js';
export type { WhatIfOptions } from '../tools/whatif/whatIf.js';
export { whatIf } from '../tools/whatif/whatIf.js';
export type { WhatIfBlock } from '../tools/whatif/whatIfLines.js';
export { whatIfLines } from '../tools/whatif/whatIfLines.js';
