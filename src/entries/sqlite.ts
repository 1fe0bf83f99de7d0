export type { SqliteDatabase, SqliteStatement } from '../stores/sqlite/betterSqlite.js';
export type { SqliteStoreOptions } from '../stores/sqlite/SqliteCheckpointStore.js';
export { SqliteCheckpointStore } from '../stores/sqlite/SqliteCheckpointStore.js';
