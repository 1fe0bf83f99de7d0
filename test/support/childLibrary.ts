import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll } from 'vitest';
import { compileLibrary, removeLibrary } from './compileLibrary.js';
import { dropSchema, PG_URL, schemaName } from './postgresServer.js';

/**
 * What a test file whose child processes share a store needs: `entries` of src compiled for them
 * (`lib`, in a folder `base` removed after), and, when Postgres answers, a schema of its own set
 * up before and dropped after. Registers the file's `beforeAll` and `afterAll`.
 * @example const built = childLibrary('claims', ['entries/index.ts'], reachable); spawn(…, { env: { LIB: built.lib } });
 */
export function childLibrary(label: string, entries: readonly string[], reachable: boolean) {
  const built = { base: '', lib: '', schema: schemaName(label) };
  beforeAll(async () => {
    Object.assign(built, compileLibrary(label, entries));
    if (reachable) {
      const store = new PostgresCheckpointStore({ connectionString: PG_URL, schema: built.schema });
      await store.setup();
      await store.close();
    }
  }, 90_000);
  afterAll(async () => {
    if (built.base) removeLibrary(built.base);
    if (reachable) await dropSchema(built.schema);
  });
  return built;
}
