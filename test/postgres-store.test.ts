import { PostgresCheckpointStore } from 'loopchart/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeCheckpointStore } from './stores/describeCheckpointStore.js';
import { dropSchema, PG_URL, postgresReachable, schemaName } from './support/postgresServer.js';

const reachable = await postgresReachable();
const schema = schemaName('suite');
const open = () => new PostgresCheckpointStore({ connectionString: PG_URL, schema });

describe.skipIf(!reachable)('on PostgreSQL', () => {
  beforeAll(async () => {
    const store = open();
    await store.setup();
    await store.close();
  });
  afterAll(() => dropSchema(schema));
  describeCheckpointStore('PostgresCheckpointStore', open);
});
