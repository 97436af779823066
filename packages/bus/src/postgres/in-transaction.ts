import type pg from 'pg';

/** Runs `body` on one pooled client inside BEGIN/COMMIT, rolling back (and rethrowing) on failure. */
export async function inTransaction(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await body(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
