export type {
  LoopPath,
  LoopPathOptions,
  LoopPathStep,
} from './getLoopPaths.js';
export { getLoopPaths } from './getLoopPaths.js';
export { isLoopPathMismatchError, LoopPathMismatchError } from './LoopPathMismatchError.js';
export type { LoopReplay } from './replayLoopPath.js';
export type { TransitionCoverage } from './transitionCoverage.js';
export { transitionCoverage } from './transitionCoverage.js';
