export { PostgresCheckpointStore } from '../stores/postgres/PostgresCheckpointStore.js';
export type { PostgresStoreOptions } from '../stores/postgres/postgresTables.js';
