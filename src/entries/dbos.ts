export type { DbosRunErrorCode } from '../runners/dbos/DbosRunError.js';
export {
  DBOS_RUN_ERROR_CODES,
  DbosRunError,
  isDbosRunError,
} from '../runners/dbos/DbosRunError.js';
export type { AnswerMessage, PublishedPause } from '../runners/dbos/driveInWorkflow.js';
export { ANSWER_TOPIC, PENDING_EVENT } from '../runners/dbos/driveInWorkflow.js';
export { recoverExecutor } from '../runners/dbos/recoverExecutor.js';
export type {
  DbosLoop,
  DbosLoopAnswer,
  DbosLoopPause,
  DbosStartOptions,
} from '../runners/dbos/registerLoop.js';
export { registerLoop } from '../runners/dbos/registerLoop.js';
export type { DbosPipeline } from '../runners/dbos/registerPipeline.js';
export { registerPipeline } from '../runners/dbos/registerPipeline.js';
