import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A schema of its own for one test, on the machine's PostgreSQL, and a pool to inspect it. */
export interface ScratchSchema {
  name: string;
  pool: pg.Pool;
  /** Drops the schema with everything in it and ends the pool. */
  drop(): Promise<void>;
}

export async function createScratchSchema(): Promise<ScratchSchema> {
  const name = `interlude_test_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: inject('postgresUrl'), max: 4 });
  await pool.query(`CREATE SCHEMA "${name}"`);
  return {
    name,
    pool,
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await pool.end();
    },
  };
}
