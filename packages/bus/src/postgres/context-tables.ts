import type { Pool } from 'pg';
import { inTransaction } from './in-transaction.js';

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A schema name checked and quoted for SQL: only plain identifiers, so no quoting tricks reach a query. */
export function quoteSchema(schema: string): string {
  if (typeof schema !== 'string' || !identifierPattern.test(schema)) {
    throw new TypeError(`schema must be a plain SQL identifier (letters, digits, _), got ${JSON.stringify(schema)}`);
  }
  return `"${schema}"`;
}

/**
 * The three tables, in `schema`. Messages keep their order by `id` (appends to one context are
 * serialized by a lock on its `contexts` row); the unique index on `(context_key, tool_call_id)`
 * stores a tool message once per call even when several processes append it (rows without a
 * tool call id never clash: NULLs are distinct); a generation has one row per context, upserted.
 */
function tablesSql(schema: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${schema}.contexts (
  context_key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${schema}.messages (
  id bigserial PRIMARY KEY,
  context_key text NOT NULL REFERENCES ${schema}.contexts (context_key) ON DELETE CASCADE,
  generation_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content jsonb NOT NULL,
  tool_call_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS messages_tool_call_once ON ${schema}.messages (context_key, tool_call_id);
CREATE INDEX IF NOT EXISTS messages_by_context ON ${schema}.messages (context_key, id);
CREATE TABLE IF NOT EXISTS ${schema}.generations (
  context_key text NOT NULL REFERENCES ${schema}.contexts (context_key) ON DELETE CASCADE,
  generation_id text NOT NULL,
  agent text NOT NULL,
  action text NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (context_key, generation_id)
);`;
}

/**
 * Creates the tables if they are missing. Two processes starting at once would race on
 * `CREATE TABLE IF NOT EXISTS` (it can still fail on the catalog's unique index), so creation
 * runs in one transaction under an advisory lock named after the schema.
 */
export async function createContextTables(pool: Pool, schema: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`interlude.context.${schema}`]);
    await client.query(tablesSql(schema));
  });
}
