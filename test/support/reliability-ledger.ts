import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One side effect a tool had, as the ledger stores it (never a tool's secret input). */
export interface SideEffectRow {
  generation_id: string;
  tool: string;
  tool_call_id: string;
  pid: number;
}

/**
 * Tool side effects in PostgreSQL, shared by every process of a test: each tool body inserts one
 * row, with no uniqueness constraint, so a side effect that ran twice (in one process or in two)
 * shows up as two rows. It also remembers which planned crashes already happened, so a worker
 * that is restarted does not crash at the same point forever.
 */
export interface Ledger {
  readonly schema: string;
  record(row: Omit<SideEffectRow, 'pid'>): Promise<void>;
  /** True the first time a process asks for `key`, false ever after, across processes. */
  firstTime(key: string): Promise<boolean>;
  /** Applies an effect keyed by an idempotency key, once however often it is asked (as a payment API does). */
  applyOnce(idempotencyKey: string): Promise<void>;
  /** Idempotency keys applied so far. */
  applied(): Promise<string[]>;
  rows(): Promise<SideEffectRow[]>;
  close(): Promise<void>;
}

/** Creates a fresh schema with the ledger's tables; `drop()` removes it. */
export async function createLedger(connectionString: string): Promise<Ledger & { drop(): Promise<void> }> {
  const schema = `reliability_${randomBytes(6).toString('hex')}`;
  const setup = new pg.Client({ connectionString });
  await setup.connect();
  try {
    await setup.query(`CREATE SCHEMA ${schema}`);
    await setup.query(
      `CREATE TABLE ${schema}.side_effects (id bigserial PRIMARY KEY, generation_id text NOT NULL, tool text NOT NULL, tool_call_id text NOT NULL, pid integer NOT NULL)`,
    );
    await setup.query(`CREATE TABLE ${schema}.first_times (key text PRIMARY KEY)`);
    await setup.query(`CREATE TABLE ${schema}.applied (idempotency_key text PRIMARY KEY)`);
  } finally {
    await setup.end();
  }
  const ledger = connectLedger(connectionString, schema);
  return {
    ...ledger,
    async drop() {
      await ledger.close();
      const client = new pg.Client({ connectionString });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
    },
  };
}

/** The ledger of an existing schema, for a child process. */
export function connectLedger(connectionString: string, schema: string): Ledger {
  if (!/^reliability_[0-9a-f]+$/.test(schema)) throw new Error(`not a ledger schema: ${schema}`);
  const pool = new pg.Pool({ connectionString, max: 4 });
  return {
    schema,
    async record(row) {
      await pool.query(
        `INSERT INTO ${schema}.side_effects (generation_id, tool, tool_call_id, pid) VALUES ($1, $2, $3, $4)`,
        [row.generation_id, row.tool, row.tool_call_id, process.pid],
      );
    },
    async firstTime(key) {
      const result = await pool.query(`INSERT INTO ${schema}.first_times (key) VALUES ($1) ON CONFLICT DO NOTHING`, [
        key,
      ]);
      return result.rowCount === 1;
    },
    async applyOnce(idempotencyKey) {
      await pool.query(`INSERT INTO ${schema}.applied (idempotency_key) VALUES ($1) ON CONFLICT DO NOTHING`, [
        idempotencyKey,
      ]);
    },
    async applied() {
      const result = await pool.query<{ idempotency_key: string }>(`SELECT idempotency_key FROM ${schema}.applied`);
      return result.rows.map((row) => row.idempotency_key);
    },
    async rows() {
      const result = await pool.query<SideEffectRow>(
        `SELECT generation_id, tool, tool_call_id, pid FROM ${schema}.side_effects ORDER BY id`,
      );
      return result.rows;
    },
    close: () => pool.end(),
  };
}

/** How many times each `generation_id/tool_call_id` ran, for exactly-once checks. */
export function countByCall(rows: readonly SideEffectRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.generation_id}/${row.tool_call_id}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
