import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { defineAgent, InputRequest, type ProviderAdapter, type Runtime, tool } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

/** One line per side effect a tool had, written by whichever process ran it. */
export interface SideEffect {
  tool: string;
  pid: number;
  generation_id: string;
}

/** The side effects written to `file` so far, by every process, in order (none when it does not exist yet). */
export async function readSideEffects(file: string): Promise<SideEffect[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SideEffect);
}

export interface RefundAgentOptions {
  /** Tools append a JSON line here each time their side effect happens (shared by processes). */
  sideEffectsFile: string;
  /** Hang forever on the model call that follows the refund, after writing `stalled` to this file. */
  stallFile?: string;
  /** Each model call appends a line here as it starts (`call <pid>`), so a test knows a job is under way. */
  modelCallsFile?: string;
  /** Wait this long before each model answer, so a generation takes time to run. */
  modelDelayMs?: number;
  /** Model→tool rounds of `lookup_order` before the refund, so a generation has many events. */
  lookups?: number;
  /** The agent's name (default `support`): a test of its own makes its deadlines its own. */
  name?: string;
  /** The refund question expires this long after it is asked, approved then (`onExpiry: { answer: true }`). */
  approveAfterMs?: number;
  /**
   * The first refund body to get here, across processes (the one that creates `file`), prints
   * `holding <generation_id>` before its side effect and waits there: for good (`killed`, for a
   * SIGKILL), or until `<file>.go` exists (`continued`: the test SIGSTOPs the process, writes it,
   * then SIGCONTs), then refunds. With `next`, the second body to get here (the one that creates
   * `next`) prints `holding <generation_id>` too, and waits there for good (for a SIGKILL).
   */
  holdRefund?: { file: string; until: 'killed' | 'continued'; next?: string };
  /** Declares `issue_refund` idempotent: run again, not asked about, after an unknown outcome. */
  refundIdempotent?: boolean;
  /** With `approveAfterMs`: the question expires unanswered instead (no `onExpiry` answer). */
  expireUnanswered?: boolean;
}

/** Holds the first refund body that gets here (and the second), as `holdRefund` says; every later one goes on. */
async function holdFirstRefund(hold: RefundAgentOptions['holdRefund'], generationId: string): Promise<void> {
  if (hold === undefined) return;
  if (!firstToCreate(hold.file)) {
    if (hold.next === undefined || !firstToCreate(hold.next)) return; // held already as often as asked
    console.log(`holding ${generationId}`);
    await new Promise(() => undefined);
  }
  console.log(`holding ${generationId}`);
  if (hold.until === 'killed') await new Promise(() => undefined);
  // Until the test, having stopped and continued this process, writes `<file>.go`.
  while (!existsSync(`${hold.file}.go`)) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Creates `file`, unless a process did before: whether this one did. */
export function firstToCreate(file: string): boolean {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

function hasToolResultFor(request: RecordedModelRequest, toolCallId: string): boolean {
  return JSON.stringify(request.messages).includes(`"tool_use_id":"${toolCallId}"`);
}

/**
 * The model of the refund scenario, answering from the conversation rather than a fixed queue, so
 * any process can run any step: look the order up (`lookups` times), refund once, then conclude.
 */
function refundModel(options: RefundAgentOptions): ProviderAdapter {
  const respond = (request: RecordedModelRequest): ScriptedReply => {
    if (hasToolResultFor(request, 'call_refund')) return { text: 'I refunded $30 on order 42.' };
    const lookups = options.lookups ?? 0;
    for (let round = 0; round < lookups; round += 1) {
      if (!hasToolResultFor(request, `call_lookup_${round}`)) {
        return { toolCalls: [{ id: `call_lookup_${round}`, name: 'lookup_order', arguments: { order_id: 42 } }] };
      }
    }
    return {
      text: 'Let me check the order.',
      toolCalls: [
        { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
        { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
      ],
    };
  };
  const scripted = scriptedProvider(Array.from({ length: 1_000 }, () => respond));
  return {
    ...scripted,
    async call(request, callOptions) {
      if (options.modelCallsFile !== undefined) appendFileSync(options.modelCallsFile, `call ${process.pid}\n`);
      if (options.modelDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.modelDelayMs));
      const afterRefund = JSON.stringify(request.messages).includes('"tool_use_id":"call_refund"');
      if (options.stallFile !== undefined && afterRefund) {
        appendFileSync(options.stallFile, 'stalled\n');
        await new Promise(() => undefined);
      }
      return scripted.call(request, callOptions);
    },
  };
}

/**
 * The `support` agent of the refund scenario for cross-process tests: `lookup_order` runs at
 * once, `issue_refund` asks for confirmation and refunds once confirmed. Every side effect is
 * a line in `sideEffectsFile`, so a test counts them across processes.
 */
export function defineRefundAgent(runtime: Runtime, options: RefundAgentOptions): AgentBase {
  const record = (name: string, generationId: string) => {
    const line: SideEffect = { tool: name, pid: process.pid, generation_id: generationId };
    appendFileSync(options.sideEffectsFile, `${JSON.stringify(line)}\n`);
  };
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order by id',
    input: z.object({ order_id: z.number() }),
    async run({ order_id }, context) {
      record('lookup_order', context.generationId);
      return { order_id, total: 120, status: 'delivered' };
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    input: z.object({ order_id: z.number(), amount: z.number() }),
    idempotent: options.refundIdempotent === true,
    async run({ order_id, amount }, context) {
      if (context.answer === undefined) {
        const expiry = options.approveAfterMs === undefined ? {} : { expiresIn: options.approveAfterMs };
        return InputRequest.confirm(`Refund $${amount} on order ${order_id}?`, {
          ...expiry,
          ...(options.approveAfterMs !== undefined &&
            options.expireUnanswered !== true && { onExpiry: { answer: true } }),
        });
      }
      await holdFirstRefund(options.holdRefund, context.generationId);
      record('issue_refund', context.generationId);
      return { refunded: amount };
    },
  });
  return defineAgent({
    name: options.name ?? 'support',
    runtime,
    provider: refundModel(options),
    actions: {
      handle: ({ ticketId }: { ticketId: number }) => ({
        message: `Resolve support ticket ${ticketId}`,
        tools: [lookupOrder, issueRefund],
      }),
    },
  });
}
