import type { Checkpoint } from '@interlude/core';
import type { ProviderAdapter } from '@interlude/core/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToStop, type StoppedGeneration, throughJson } from './run-to-stop.js';
import { createSupportDesk } from './support-desk.js';
import { createWireServer, type WireReply, type WireServer } from './wire-server.js';

type SupportAgent = ReturnType<typeof createSupportDesk>['agent'];

/** What an adapter-specific check can read: the run mode and the wire server of the running test. */
export interface GenerationSuiteContext {
  stream: boolean;
  server: WireServer;
  /** The JSON body of every request the server received, in order. */
  bodies(): Record<string, unknown>[];
}

/** The recorded replies one adapter answers the support desk with, by scenario step. */
export interface GenerationSuiteWire {
  /** The endpoint the SDK posts to (`/v1/messages`). */
  path: string;
  reply(name: string, stream: boolean): WireReply;
  /** Fixture names: the turn with `lookup_order` + `issue_refund`, and the one with `close_account`. */
  refundCalls: string;
  closeCall: string;
  /** Fixture names of the final answers after a confirmed refund, a declined one, and a closed account. */
  refundDone: string;
  refundDeclined: string;
  closeDone: string;
  /** The tool call ids those fixtures carry. */
  ids: { lookup: string; refund: string; close: string };
  /** The final texts of `refundDone` and `closeDone`. */
  refundedText: string;
  closedText: string;
}

/** The parts of each scenario that differ per adapter: titles, request bodies, item orders. */
export interface GenerationSuiteChecks {
  titles: { refund: string; decline: string; secondPause: string };
  refundPaused(paused: StoppedGeneration, checkpoint: Checkpoint, context: GenerationSuiteContext): void;
  refundDone(stops: { paused: StoppedGeneration; done: StoppedGeneration }, context: GenerationSuiteContext): void;
  declineDone(context: GenerationSuiteContext): void;
  gatePaused?(paused: StoppedGeneration): void;
  /** The top-level keys every request body carries, and nothing else (so no approval field leaks). */
  sentKeys(stream: boolean): string[];
  /** What must never appear in a body; `/approval/i` unless the adapter spells it out. */
  gateLeak?: RegExp;
  secondPaused(second: StoppedGeneration): void;
  secondDone(context: GenerationSuiteContext): void;
}

export interface GenerationSuite {
  /** The factory's name, for test titles (`openaiChat`). */
  name: string;
  build(serverUrl: string): ProviderAdapter;
  wire: GenerationSuiteWire;
  checks: GenerationSuiteChecks;
}

/**
 * The support-desk generations every adapter must get right, driven the same way for each and
 * run streamed and not: a confirmed refund resumed from JSON, a declined one, an approval gate
 * that never reaches the API, and a second pause in a later turn. Each adapter's test file passes
 * its own wire replies and checks its own exact request bodies through `checks`.
 */
export function describeAdapterGenerationSuite(suite: GenerationSuite): void {
  const { wire, checks } = suite;
  describe.each([false, true])(`${suite.name} generations (stream: %s)`, (stream) => {
    let server: WireServer;
    beforeEach(async () => {
      server = await createWireServer();
    });
    afterEach(() => server.close());

    const context: GenerationSuiteContext = {
      stream,
      get server() {
        return server;
      },
      bodies: () => server.requests.map((request) => request.body as Record<string, unknown>),
    };
    const desk = () => createSupportDesk(suite.build(server.url));
    const enqueue = (...names: string[]) => server.enqueue(wire.path, ...names.map((name) => wire.reply(name, stream)));
    const resume = (agent: SupportAgent, ticketId: number, stop: StoppedGeneration, answers: Record<string, boolean>) =>
      runToStop(agent.handle({ ticketId }), {
        stream,
        resume: { checkpoint: throughJson(stop.response.checkpoint as Checkpoint), answers },
      });

    it(checks.titles.refund, async () => {
      const { agent, runs } = desk();
      enqueue(wire.refundCalls, wire.refundDone);
      const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
      expect(paused.response.inputRequests.map((request) => request.toJSON())).toEqual([
        {
          kind: 'confirm',
          prompt: 'Refund $25 on order 42?',
          tool_call_id: wire.ids.refund,
          tool_name: 'issue_refund',
          arguments: { order_id: 42, amount: 25 },
        },
      ]);
      expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
      const checkpoint = throughJson(paused.response.checkpoint as Checkpoint);
      checks.refundPaused(paused, checkpoint, context);

      const done = await runToStop(agent.handle({ ticketId: 42 }), {
        stream,
        resume: { checkpoint, answers: { [wire.ids.refund]: true } },
      });
      expect(done.response.awaitingInput).toBe(false);
      expect(done.response.text).toBe(wire.refundedText);
      expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 1 });
      checks.refundDone({ paused, done }, context);

      if (stream) {
        const parts = [...paused.parts, ...done.parts];
        const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCall.id] : []));
        expect(calls).toEqual([wire.ids.lookup, wire.ids.refund]);
        const text = done.parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
        expect(text).toBe(wire.refundedText);
      }
    });

    it(checks.titles.decline, async () => {
      const { agent, runs } = desk();
      enqueue(wire.refundCalls, wire.refundDeclined);
      const paused = await runToStop(agent.handle({ ticketId: 42 }), { stream });
      const done = await resume(agent, 42, paused, { [wire.ids.refund]: false });
      expect(done.response.text).toBe('The refund was declined, so order 42 is unchanged.');
      expect(runs).toMatchObject({ lookup_order: 1, issue_refund: 0 });
      checks.declineDone(context);
    });

    it('approval gate: pauses before close_account runs, and the gate never reaches the API', async () => {
      const { agent, runs } = desk();
      enqueue(wire.closeCall, wire.closeDone);
      const paused = await runToStop(agent.handle({ ticketId: 7 }), { stream });
      expect(paused.response.inputRequests.map((request) => request.toJSON())).toMatchObject([
        { kind: 'confirm', tool_call_id: wire.ids.close, tool_name: 'close_account', metadata: { approval: true } },
      ]);
      checks.gatePaused?.(paused);
      expect(runs.close_account).toBe(0);

      await resume(agent, 7, paused, { [wire.ids.close]: true });
      expect(runs.close_account).toBe(1);
      for (const body of context.bodies()) {
        expect(JSON.stringify(body)).not.toMatch(checks.gateLeak ?? /approval/i);
        expect(Object.keys(body).sort()).toEqual(checks.sentKeys(stream).sort());
      }
    });

    it(checks.titles.secondPause, async () => {
      const { agent, runs } = desk();
      enqueue(wire.refundCalls, wire.closeCall, wire.closeDone);
      const first = await runToStop(agent.handle({ ticketId: 42 }), { stream });
      const second = await resume(agent, 42, first, { [wire.ids.refund]: true });
      expect(second.response.awaitingInput).toBe(true);
      checks.secondPaused(second);

      const done = await resume(agent, 42, second, { [wire.ids.close]: true });
      expect(done.response.text).toBe(wire.closedText);
      expect(runs).toEqual({ lookup_order: 1, issue_refund: 1, close_account: 1 });
      checks.secondDone(context);
    });
  });
}
