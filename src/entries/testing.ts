export type { ExecutedRun, LoopRunCheck } from '../tools/testing/checkLoopRuns.js';
export { checkLoopRuns } from '../tools/testing/checkLoopRuns.js';
export type {
  ExternalMark,
  ExternalStep,
  ExternalSteps,
} from '../tools/testing/externalSteps.js';
export type {
  LoopPath,
  LoopPathBaseOptions,
  LoopPathOptions,
  LoopPathStep,
} from '../tools/testing/getLoopPaths.js';
export { getLoopPaths } from '../tools/testing/getLoopPaths.js';
export {
  isLoopPathMismatchError,
  LoopPathMismatchError,
} from '../tools/testing/LoopPathMismatchError.js';
export {
  isLoopPathUnrealisableError,
  LoopPathUnrealisableError,
} from '../tools/testing/LoopPathUnrealisableError.js';
export type { LoopPathVerdict } from '../tools/testing/loopPathVerdict.js';
export type {
  ArbitraryLike,
  LoopSamples,
  Sample,
  VerdictLabel,
  VerdictSamples,
} from '../tools/testing/loopSamples.js';
export type { RealSteps } from '../tools/testing/realiseLoopPath.js';
export type { LoopPathStepState, LoopReplay } from '../tools/testing/replayLoopPath.js';
export type { CoveredPath, TransitionCoverage } from '../tools/testing/transitionCoverage.js';
export { transitionCoverage } from '../tools/testing/transitionCoverage.js';
export type { ExecutedStepCall } from '../tools/testing/watchStepCalls.js';
