// loopchart/serve: stored runs over HTTP (and the pieces the MCP server shares), docs/api.md.
export type { ApiReply } from './apiReply.js';
export type {
  AnswerEvent,
  AnswerRequest,
  AnswerResponse,
  ApiError,
  ApiErrorCode,
  HealthQuery,
  ListQuery,
} from './apiSchemas.js';
export {
  API_ERROR_CODES,
  answerEventSchema,
  answerRequestSchema,
  answerResponseSchema,
  apiErrorSchema,
  healthQuerySchema,
  listQuerySchema,
} from './apiSchemas.js';
export { healthReportSchema, loopHealthSchema } from './healthSchema.js';
export { API_SCHEMAS, jsonSchemaOf, openApiDocument } from './openApiDocument.js';
export type { RunApi, RunApiOptions } from './runApi.js';
export { createRunApi } from './runApi.js';
export { runDetail } from './runDetail.js';
export { listRuns } from './runList.js';
export type { LoopRunDetail, RunDetail, RunList } from './runSchemas.js';
export {
  runDetailSchema,
  runListSchema,
  runSummarySchema,
  traceEntrySchema,
} from './runSchemas.js';
export type { RunsServer, ServeRunsOptions } from './serveRuns.js';
export { DEFAULT_SERVE_PORT, serveRuns } from './serveRuns.js';
