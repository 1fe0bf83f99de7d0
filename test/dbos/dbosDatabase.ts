/** A database of its own for one DBOS test file on the local Postgres server, dropped after. */
import { randomBytes } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { PG_URL } from '../support/postgresServer.js';

/** Creates a database with the DBOS system tables (migrated once, so processes never race to). */
export async function createDatabase(label: string): Promise<{ name: string; url: string }> {
  const name = `loopchart_dbos_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  await DBOS.migrate(url.toString());
  return { name, url: url.toString() };
}

/** Drops a test database, closing the connections still open to it. */
export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** How many messages sent to a workflow no `recv` has taken yet (DBOS's own notifications table). */
export async function unreadMessages(url: string, workflowId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM dbos.notifications WHERE destination_uuid = $1 AND consumed = false',
      [workflowId],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}
