// loopchart/serve: stored runs over HTTP (and the pieces the MCP server shares), docs/api.md.
export type { ApiReply } from '../tools/serve/apiReply.js';
export type {
  AnswerEvent,
  AnswerRequest,
  AnswerResponse,
  ApiError,
  ApiErrorCode,
  HealthQuery,
  ListQuery,
} from '../tools/serve/apiSchemas.js';
export {
  API_ERROR_CODES,
  answerEventSchema,
  answerRequestSchema,
  answerResponseSchema,
  apiErrorSchema,
  healthQuerySchema,
  listQuerySchema,
} from '../tools/serve/apiSchemas.js';
export { healthReportSchema, loopHealthSchema } from '../tools/serve/healthSchema.js';
export { API_SCHEMAS, jsonSchemaOf, openApiDocument } from '../tools/serve/openApiDocument.js';
export type { RunApi, RunApiOptions } from '../tools/serve/runApi.js';
export { createRunApi } from '../tools/serve/runApi.js';
export { runDetail } from '../tools/serve/runDetail.js';
export { listRuns } from '../tools/serve/runList.js';
export type { LoopRunDetail, RunDetail, RunList } from '../tools/serve/runSchemas.js';
export {
  runDetailSchema,
  runListSchema,
  runSummarySchema,
  traceEntrySchema,
} from '../tools/serve/runSchemas.js';
export type { RunsServer, ServeRunsOptions } from '../tools/serve/serveRuns.js';
export { DEFAULT_SERVE_PORT, serveRuns } from '../tools/serve/serveRuns.js';
