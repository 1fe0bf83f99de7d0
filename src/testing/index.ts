export type {
  LoopPath,
  LoopPathOptions,
  LoopPathStep,
} from './getLoopPaths.js';
export { getLoopPaths } from './getLoopPaths.js';
export { isLoopPathMismatchError, LoopPathMismatchError } from './LoopPathMismatchError.js';
export type {
  ArbitraryLike,
  LoopSamples,
  Sample,
  VerdictLabel,
  VerdictSamples,
} from './loopSamples.js';
export type { RealSteps } from './realiseLoopPath.js';
export type { LoopPathStepState, LoopReplay } from './replayLoopPath.js';
export type { CoveredPath, TransitionCoverage } from './transitionCoverage.js';
export { transitionCoverage } from './transitionCoverage.js';
