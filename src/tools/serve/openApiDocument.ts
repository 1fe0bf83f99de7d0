import { z } from 'zod';
import {
  answerRequestSchema,
  answerResponseSchema,
  apiErrorSchema,
  healthQuerySchema,
  listQuerySchema,
} from './apiSchemas.js';
import { healthReportSchema } from './healthSchema.js';
import { runDetailSchema, runListSchema } from './runSchemas.js';

/** The schemas of the run API's bodies, by the name `components.schemas` gives them. */
export const API_SCHEMAS = {
  RunList: runListSchema,
  RunDetail: runDetailSchema,
  HealthReport: healthReportSchema,
  AnswerRequest: answerRequestSchema,
  AnswerResponse: answerResponseSchema,
  ApiError: apiErrorSchema,
} as const;

/** A zod schema as JSON Schema (2020-12, the dialect of OpenAPI 3.1), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output') {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

const ref = (name: keyof typeof API_SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof API_SCHEMAS) => ({
  content: { 'application/json': { schema: ref(name) } },
});
const failure = (description: string) => ({ description, ...json('ApiError') });

function queryParameters(schema: z.ZodObject) {
  const { properties = {} } = jsonSchemaOf(schema, 'input') as {
    properties?: Record<string, { description?: string }>;
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

const runId = { name: 'runId', in: 'path', required: true, schema: { type: 'string' } };

/**
 * The OpenAPI 3.1 document of the HTTP run API, generated from the zod schemas the handlers use.
 * @example const doc = openApiDocument(); // what GET /api/openapi.json serves
 */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'loopchart run API',
      version: '1',
      description:
        'Stored loopchart runs: list, detail, loop health, and answers to paused runs (docs/api.md).',
    },
    components: {
      schemas: Object.fromEntries(
        Object.entries(API_SCHEMAS).map(([name, schema]) => [
          name,
          jsonSchemaOf(schema, name === 'AnswerRequest' ? 'input' : 'output'),
        ]),
      ),
      securitySchemes: { token: { type: 'http', scheme: 'bearer' } },
    },
    paths: {
      '/api/runs': {
        get: {
          summary: 'List stored runs, most recently saved first',
          parameters: queryParameters(listQuerySchema),
          responses: {
            200: { description: 'One page', ...json('RunList') },
            400: failure('A malformed query'),
          },
        },
      },
      '/api/runs/{runId}': {
        get: {
          summary: 'One run: its pending question, outcome, LoopError and trace',
          parameters: [runId],
          responses: {
            200: { description: 'The run', ...json('RunDetail') },
            404: failure('No such run'),
          },
        },
      },
      '/api/runs/{runId}/answer': {
        post: {
          summary: 'Answer a paused run (a review or a question), pinned to its seq',
          security: [{ token: [] }],
          parameters: [runId],
          requestBody: { required: true, ...json('AnswerRequest') },
          responses: {
            200: {
              description: 'With wait: the run once it ended or paused again',
              ...json('AnswerResponse'),
            },
            202: {
              description: 'The answer took; the run goes on in the server',
              ...json('AnswerResponse'),
            },
            400: failure('A malformed body'),
            401: failure('No token, or the wrong one'),
            403: failure('Answers disabled, or a cross-origin request'),
            404: failure('No such run'),
            409: failure('The run moved on (stale ifSeq) or is not paused'),
            413: failure('The body is too large'),
            415: failure('The body is not application/json'),
            422: failure('The answer was refused, or no loop is registered for the run'),
          },
        },
      },
      '/api/health': {
        get: {
          summary: 'Loop health: outcomes, iterations, verdicts, stalls and red flags per loop',
          parameters: queryParameters(healthQuerySchema),
          responses: {
            200: { description: 'The report', ...json('HealthReport') },
            400: failure('A malformed query'),
          },
        },
      },
    },
  };
}
