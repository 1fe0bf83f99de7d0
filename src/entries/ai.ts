export { classifyModelFailure, retryAfter } from '../adapters/ai/classifyModelFailure.js';
export type {
  ModelCall,
  ModelLoopConfig,
  ModelSteps,
  ModelStepsOptions,
} from '../adapters/ai/modelSteps.js';
export { modelSteps } from '../adapters/ai/modelSteps.js';
export type { UnusableOutput } from '../adapters/ai/unusableOutput.js';
export { isUnusableOutput } from '../adapters/ai/unusableOutput.js';
