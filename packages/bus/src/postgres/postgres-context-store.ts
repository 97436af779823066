import type { ContextGeneration, ContextMessage, ContextStore } from '@interlude/core';
import pg from 'pg';
import { createContextTables, quoteSchema } from './context-tables.js';
import { inTransaction } from './in-transaction.js';

export type PostgresConnection = { pool: pg.Pool } | { connectionString: string };

export interface PostgresContextStoreOptions {
  /** Where the tables live; created if missing. Default `interlude`, so they never clash with an app's own `messages`. */
  schema?: string;
}

export interface PostgresContextStore extends ContextStore {
  /** Ends the pool when the store created it from a connection string; a pool you passed stays yours. */
  close(): Promise<void>;
}

interface MessageRow {
  generation_id: string;
  role: ContextMessage['role'];
  content: unknown;
  tool_call_id: string | null;
}

/**
 * A context store in PostgreSQL through `pg`, for conversations that outlive a process. It creates
 * its tables (`contexts`, `messages`, `generations`) on first use, stores a tool message once per
 * (context, tool call id) even when several runs append it, upserts one row per generation, and
 * gives messages back in the order they were appended.
 *
 * @example
 *   const store = postgresContextStore({ connectionString: process.env.DATABASE_URL! });
 *   defineAgent({ …, context: hasContext(store, { contextual: ({ userId }) => `user:${userId}` }) });
 */
export function postgresContextStore(
  connection: PostgresConnection,
  options: PostgresContextStoreOptions = {},
): PostgresContextStore {
  const schema = quoteSchema(options.schema ?? 'interlude');
  const ownsPool = !('pool' in connection);
  const pool = 'pool' in connection ? connection.pool : new pg.Pool({ connectionString: connection.connectionString });
  let ready: Promise<void> | undefined;
  const tables = () => {
    // Created once per store; a failure (database not up yet) is retried by the next call.
    ready ??= createContextTables(pool, schema).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  return {
    async load(contextKey) {
      await tables();
      const { rows } = await pool.query<MessageRow>(
        `SELECT generation_id, role, content, tool_call_id FROM ${schema}.messages WHERE context_key = $1 ORDER BY id`,
        [contextKey],
      );
      return rows.map(toMessage);
    },
    async append(contextKey, messages) {
      if (messages.length === 0) return;
      await tables();
      await inTransaction(pool, async (client) => {
        await lockContext(client, schema, contextKey);
        for (const message of messages) {
          await client.query(
            `INSERT INTO ${schema}.messages (context_key, generation_id, role, content, tool_call_id)
             VALUES ($1, $2, $3, $4::jsonb, $5)
             ON CONFLICT (context_key, tool_call_id) DO NOTHING`,
            [
              contextKey,
              message.generationId,
              message.role,
              JSON.stringify(message.content ?? null),
              message.toolCallId ?? null,
            ],
          );
        }
      });
    },
    async recordGeneration(contextKey, generation: ContextGeneration) {
      await tables();
      await inTransaction(pool, async (client) => {
        await lockContext(client, schema, contextKey);
        await client.query(
          `INSERT INTO ${schema}.generations (context_key, generation_id, agent, action, status)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (context_key, generation_id)
           DO UPDATE SET agent = EXCLUDED.agent, action = EXCLUDED.action, status = EXCLUDED.status, updated_at = now()`,
          [contextKey, generation.generationId, generation.agent, generation.action, generation.status],
        );
      });
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}

function toMessage(row: MessageRow): ContextMessage {
  return {
    generationId: row.generation_id,
    role: row.role,
    content: row.content,
    ...(row.tool_call_id !== null && { toolCallId: row.tool_call_id }),
  };
}

/** Creates the context row if needed and locks it, so appends to one context never interleave. */
async function lockContext(client: pg.PoolClient, schema: string, contextKey: string): Promise<void> {
  await client.query(
    `INSERT INTO ${schema}.contexts (context_key) VALUES ($1)
     ON CONFLICT (context_key) DO UPDATE SET updated_at = now()`,
    [contextKey],
  );
}
