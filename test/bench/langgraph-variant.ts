import { randomUUID } from 'node:crypto';
import {
  type AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { ChatOpenAI } from '@langchain/openai';
import pg from 'pg';
import { type CycleVariant, timedBuild } from './cycle-variants.js';
import { expectBareCycle } from './expect-bare-cycle.js';
import { ticketMessage } from './refund-chat-responder.js';
import { createRefundWork, issueRefundInput, lookupOrderInput, SUPPORT_INSTRUCTIONS } from './refund-work.js';

/** Where the LangGraph peer keeps its checkpoints: the machine's PostgreSQL, in a schema of its own. */
const POSTGRES_URL = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_langgraph';

/**
 * A peer: the refund scenario as LangGraph.js documents human review of tool calls, durable with
 * `PostgresSaver`. The model node calls `ChatOpenAI` with both tools bound; a review node
 * `interrupt()`s on an `issue_refund` call before any tool runs (a tool node interrupted halfway
 * would run `lookup_order` again on resume); `ToolNode` runs the calls; the model answers. The
 * paused graph lives in PostgreSQL under its thread id, and the resume is `Command({ resume })`
 * on that thread. Its paused state is counted as the bytes of its rows after the pause. With
 * `streamed`, `ChatOpenAI` streams and both runs are `graph.stream()` in `messages` and
 * `updates` modes, read to the end: the model's tokens as they come, the interrupt from the
 * updates. It keeps its checkpoints in a schema of its own, so both variants run side by side.
 */
export async function langGraphVariant(
  baseURL: string,
  { streamed = false, fresh = false }: { streamed?: boolean; fresh?: boolean } = {},
): Promise<CycleVariant> {
  const work = createRefundWork();
  const schema = streamed ? `${SCHEMA}_streamed` : fresh ? `${SCHEMA}_fresh` : SCHEMA;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const checkpointer = PostgresSaver.fromConnString(POSTGRES_URL, { schema });
  await checkpointer.setup();
  // Replies the agent node gave a fresh id (below). Streamed, LangGraph sends such a reply again
  // whole at the node's end, as a message the tokens did not announce: read once, it is skipped.
  const renamed = new Set<string>();
  const lastCalls = (state: typeof MessagesAnnotation.State) => (state.messages.at(-1) as AIMessage).tool_calls ?? [];
  /** The tools, the model and the compiled graph: what a process builds before it runs the graph. */
  const buildGraph = () => {
    const lookupOrder = tool(async (input) => work.lookupOrder(input), {
      name: 'lookup_order',
      description: 'Find an order by id',
      schema: lookupOrderInput,
    });
    const issueRefund = tool(async (input) => work.issueRefund(input), {
      name: 'issue_refund',
      description: 'Refund part of an order',
      schema: issueRefundInput,
    });
    const model = new ChatOpenAI({
      model: 'gpt-4.1-bench',
      apiKey: 'bench',
      maxRetries: 0,
      streaming: streamed,
      configuration: { baseURL },
    }).bindTools([lookupOrder, issueRefund]);
    return new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => {
        const reply = await model.invoke([new SystemMessage(SUPPORT_INSTRUCTIONS), ...state.messages]);
        // The wire server gives every completion one id, which the messages reducer would take for
        // the same message and replace; the real API's ids differ per completion.
        reply.id = randomUUID();
        if (streamed) renamed.add(reply.id);
        return { messages: [reply] };
      })
      .addNode('review', (state) => {
        const refund = lastCalls(state).find((call) => call.name === 'issue_refund');
        if (refund !== undefined) {
          const approved = interrupt(`Refund $${refund.args['amount']} on order ${refund.args['order_id']}?`);
          if (approved !== true) throw new Error('The bench approves every refund');
        }
        return {};
      })
      .addNode('tools', new ToolNode([lookupOrder, issueRefund]))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', (state) => (lastCalls(state).length > 0 ? 'review' : END))
      .addEdge('review', 'tools')
      .addEdge('tools', 'agent')
      .compile({ checkpointer });
  };
  // Fresh: a graph built for the pause and another for the resume, as two processes would.
  const builtOnce = buildGraph();
  const graphFor = fresh ? () => timedBuild(variant, buildGraph) : () => builtOnce;

  type GraphInput = Parameters<typeof builtOnce.invoke>[0];
  type GraphConfig = { configurable: { thread_id: string } };
  /** One run of the graph: the question it paused on, or the text of its last model turn. */
  const run = async (input: GraphInput, config: GraphConfig): Promise<{ prompt: string; text: string }> => {
    const graph = graphFor();
    if (!streamed) {
      const state = await graph.invoke(input, config);
      const interrupts = (state as { __interrupt__?: { value: unknown }[] }).__interrupt__;
      return { prompt: String(interrupts?.[0]?.value ?? ''), text: String(state.messages.at(-1)?.content ?? '') };
    }
    let prompt = '';
    let text = '';
    const stream = await graph.stream(input, { ...config, streamMode: ['messages', 'updates'] });
    for await (const [mode, chunk] of stream) {
      if (mode === 'updates') {
        const interrupts = (chunk as { __interrupt__?: { value: unknown }[] }).__interrupt__;
        if (interrupts !== undefined) prompt = String(interrupts[0]?.value ?? '');
        continue;
      }
      const [message, metadata] = chunk as [BaseMessage, { langgraph_node?: string }];
      // The model's tokens as they come, without the whole reply sent again under its new id. The
      // resume calls the model once, so its tokens add up to the final answer the cycle checks.
      if (metadata.langgraph_node !== 'agent' || !AIMessageChunk.isInstance(message)) continue;
      if (message.id !== undefined && renamed.delete(message.id)) continue;
      text += typeof message.content === 'string' ? message.content : '';
    }
    return { prompt, text };
  };

  const name = `LangGraph.js + PostgresSaver${streamed ? ', streamed' : ''}${fresh ? ', fresh' : ''}`;
  let measured = false;
  const variant: CycleVariant = {
    name,
    pausedBytes: 0,
    async cycle(ticketId) {
      const before = { ...work.runs };
      const config = { configurable: { thread_id: `ticket-${ticketId}-${process.pid}${fresh ? '-fresh' : ''}` } };
      const { prompt } = await run({ messages: [new HumanMessage(ticketMessage(ticketId))] }, config);
      if (!measured) {
        // Once, in a warm-up cycle: what the paused thread holds in the database.
        measured = true;
        variant.pausedBytes = await rowBytes(admin, schema, config.configurable.thread_id);
      }
      const { text } = await run(new Command({ resume: true }), config);
      expectBareCycle(name, work, before, { prompt, text });
    },
    async close() {
      await checkpointer.end();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
  return variant;
}

/** The bytes of a thread's rows in PostgresSaver's tables (checkpoints, their blobs and pending writes). */
async function rowBytes(client: pg.Client, schema: string, threadId: string): Promise<number> {
  let total = 0;
  for (const table of ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes']) {
    const result = await client.query(
      `SELECT coalesce(sum(pg_column_size(t.*)), 0)::int AS bytes FROM ${schema}.${table} t WHERE thread_id = $1`,
      [threadId],
    );
    total += Number(result.rows[0]?.bytes ?? 0);
  }
  return total;
}
