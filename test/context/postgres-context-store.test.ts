import { type PostgresContextStore, postgresContextStore } from '@interlude/bus/postgres';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineContextStoreConformance } from '../support/context-store-conformance.js';
import { defineContextualRefundAgent } from '../support/contextual-refund-agent.js';
import { createScratchSchema, type ScratchSchema } from './postgres-schema.js';

let schema: ScratchSchema;
let store: PostgresContextStore;
beforeEach(async () => {
  schema = await createScratchSchema();
  store = postgresContextStore({ pool: schema.pool }, { schema: schema.name });
});
afterEach(async () => {
  await schema.drop();
});

async function messageRows() {
  const { rows } = await schema.pool.query(
    `SELECT context_key, generation_id, role, tool_call_id, content FROM "${schema.name}".messages ORDER BY id`,
  );
  return rows;
}

async function generationRows() {
  const { rows } = await schema.pool.query(
    `SELECT context_key, generation_id, agent, action, status FROM "${schema.name}".generations`,
  );
  return rows;
}

describe('postgresContextStore through hasContext', () => {
  it('a pause stores only the user row and an awaiting_input generation row', async () => {
    const { agent } = defineContextualRefundAgent(store);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();

    expect(await messageRows()).toEqual([
      {
        context_key: 'ticket:42',
        generation_id: paused.generationId,
        role: 'user',
        tool_call_id: null,
        content: 'Resolve support ticket 42',
      },
    ]);
    expect(await generationRows()).toEqual([
      {
        context_key: 'ticket:42',
        generation_id: paused.generationId,
        agent: 'support',
        action: 'handle',
        status: 'awaiting_input',
      },
    ]);
  });

  it('pause then resume leaves exactly the user row, one row per tool call, the final assistant row and one generation row', async () => {
    const { agent } = defineContextualRefundAgent(store);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    await agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: JSON.parse(JSON.stringify(paused.checkpoint)), answers: { call_refund: true } });

    const id = paused.generationId;
    expect(await messageRows()).toEqual([
      {
        context_key: 'ticket:42',
        generation_id: id,
        role: 'user',
        tool_call_id: null,
        content: 'Resolve support ticket 42',
      },
      {
        context_key: 'ticket:42',
        generation_id: id,
        role: 'tool',
        tool_call_id: 'call_lookup',
        content: {
          tool_name: 'lookup_order',
          arguments: { order_id: 42 },
          result: { order_id: 42, total: 120, status: 'delivered' },
          is_error: false,
        },
      },
      {
        context_key: 'ticket:42',
        generation_id: id,
        role: 'tool',
        tool_call_id: 'call_refund',
        content: {
          tool_name: 'issue_refund',
          arguments: { order_id: 42, amount: 30 },
          result: { refunded: 30 },
          is_error: false,
        },
      },
      {
        context_key: 'ticket:42',
        generation_id: id,
        role: 'assistant',
        tool_call_id: null,
        content: 'I refunded $30 on order 42.',
      },
    ]);
    expect(await generationRows()).toEqual([
      { context_key: 'ticket:42', generation_id: id, agent: 'support', action: 'handle', status: 'completed' },
    ]);
    const { rows: contexts } = await schema.pool.query(`SELECT context_key FROM "${schema.name}".contexts`);
    expect(contexts).toEqual([{ context_key: 'ticket:42' }]);
  });
});

describe('postgresContextStore as a ContextStore', () => {
  defineContextStoreConformance(() => store);
});
