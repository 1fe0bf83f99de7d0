export type { ExtractedJson } from './extractJson.js';
export { extractJson } from './extractJson.js';
export type { SchemaIssue } from './schemaIssues.js';
export type { SchemaValidator, SchemaValidatorOptions } from './schemaValidator.js';
export { schemaValidator } from './schemaValidator.js';
