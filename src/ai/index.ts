export { classifyModelFailure, retryAfter } from './classifyModelFailure.js';
export type { ModelCall, ModelSteps, ModelStepsOptions } from './modelSteps.js';
export { modelSteps } from './modelSteps.js';
export type { UnusableOutput } from './unusableOutput.js';
export { isUnusableOutput } from './unusableOutput.js';
