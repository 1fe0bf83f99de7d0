export type { SqliteDatabase, SqliteStatement } from './betterSqlite.js';
export type { SqliteStoreOptions } from './SqliteCheckpointStore.js';
export { SqliteCheckpointStore } from './SqliteCheckpointStore.js';
