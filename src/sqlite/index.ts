export type { SqliteStoreOptions } from './SqliteCheckpointStore.js';
export { SqliteCheckpointStore } from './SqliteCheckpointStore.js';
