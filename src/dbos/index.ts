export type { DbosRunErrorCode } from './DbosRunError.js';
export { DBOS_RUN_ERROR_CODES, DbosRunError, isDbosRunError } from './DbosRunError.js';
export type { AnswerMessage, PublishedPause } from './driveInWorkflow.js';
export { ANSWER_TOPIC, PENDING_EVENT } from './driveInWorkflow.js';
export { recoverExecutor } from './recoverExecutor.js';
export type {
  DbosLoop,
  DbosLoopAnswer,
  DbosLoopPause,
  DbosStartOptions,
} from './registerLoop.js';
export { registerLoop } from './registerLoop.js';
export type { DbosPipeline } from './registerPipeline.js';
export { registerPipeline } from './registerPipeline.js';
