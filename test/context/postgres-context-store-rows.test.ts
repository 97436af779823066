import { postgresContextStore } from '@interlude/bus/postgres';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createScratchSchema, type ScratchSchema } from './postgres-schema.js';

let schema: ScratchSchema;
beforeEach(async () => {
  schema = await createScratchSchema();
});
afterEach(async () => {
  await schema.drop();
});

const toolRow = { generationId: 'g', role: 'tool' as const, toolCallId: 'c1', content: { result: 1 } };

async function tablesIn(name: string): Promise<string[]> {
  const { rows } = await schema.pool.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [name],
  );
  return rows.map((row) => row.table_name);
}

describe('postgresContextStore rows', () => {
  it('creates its tables on first use, in its schema', async () => {
    const store = postgresContextStore({ pool: schema.pool }, { schema: schema.name });
    expect(await tablesIn(schema.name)).toEqual([]);
    expect(await store.load('k')).toEqual([]);
    expect(await tablesIn(schema.name)).toEqual(['contexts', 'generations', 'messages']);
  });

  it('two stores on separate connections appending the same tool rows at once store each call once, in order', async () => {
    const first = postgresContextStore({ connectionString: inject('postgresUrl') }, { schema: schema.name });
    const second = postgresContextStore({ connectionString: inject('postgresUrl') }, { schema: schema.name });
    const rows = ['c1', 'c2', 'c3'].map((toolCallId) => ({ ...toolRow, toolCallId }));
    try {
      await Promise.all([first.append('k', rows), second.append('k', rows)]);
      expect((await first.load('k')).map((message) => message.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('upserts one generation row per generation with its latest status', async () => {
    const store = postgresContextStore({ pool: schema.pool }, { schema: schema.name });
    const generation = { generationId: 'g', agent: 'support', action: 'handle' };
    await store.recordGeneration('k', { ...generation, status: 'awaiting_input' });
    await store.recordGeneration('k', { ...generation, status: 'completed' });
    const { rows } = await schema.pool.query(`SELECT generation_id, status FROM "${schema.name}".generations`);
    expect(rows).toEqual([{ generation_id: 'g', status: 'completed' }]);
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => postgresContextStore({ pool: schema.pool }, { schema: 'x"; DROP TABLE y; --' })).toThrow(TypeError);
  });
});
