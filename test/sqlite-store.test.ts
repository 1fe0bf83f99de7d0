import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll } from 'vitest';
import { describeCheckpointStore } from './stores/describeCheckpointStore.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeCheckpointStore(
  'SqliteCheckpointStore',
  () => new SqliteCheckpointStore(join(dir, 'runs.db')),
);
