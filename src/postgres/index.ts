export { PostgresCheckpointStore } from './PostgresCheckpointStore.js';
export type { PostgresStoreOptions } from './postgresTables.js';
